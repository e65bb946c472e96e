import type { FastifyInstance } from 'fastify';
import { READ_ONLY_MESSAGE, readSettings } from '../core/settings.ts';
import { errorPage, viewerOf } from './respond.ts';
import { currentSession, type WebDeps } from './session.ts';

/**
 * The forms a read-only workspace still takes: logging in and out; a member's personal tokens and
 * connected applications (reading through the API needs a token, and revoking only takes access
 * away); the administrator's switches of the doors and modules (they change no record, and
 * reading through a door needs it on; the read-only switch itself is not among them). Every other
 * form changes the workspace and is refused.
 */
const TAKEN_WHILE_READ_ONLY: ReadonlySet<string> = new Set([
  '/login',
  '/logout',
  '/agents/tokens',
  '/agents/tokens/:id/revoke',
  '/agents/connections/:id/revoke',
  '/admin/settings',
]);

/** One guard for every form of the pages (spec 5.6): 403 naming the read-only workspace, before any handler. */
export function refuseFormsWhileReadOnly(app: FastifyInstance, deps: WebDeps): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.is404) return;
    if (TAKEN_WHILE_READ_ONLY.has(request.routeOptions.url ?? '')) return;
    const settings = await readSettings(deps.db);
    if (!settings.readOnly) return;
    const session = await currentSession(request, deps);
    return errorPage(reply, 403, READ_ONLY_MESSAGE, session ? viewerOf(session, settings) : undefined);
  });
}
