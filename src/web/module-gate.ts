import type { FastifyReply } from 'fastify';
import { ApiError } from '../core/errors.ts';
import { moduleOffReason, readSettings, type WorkspaceSettings } from '../core/settings.ts';
import { html, type Html } from './html.ts';
import { usableModules, type ModuleSection } from './navigation.ts';
import { memberErrorPage } from './respond.ts';
import type { Session, WebDeps } from './session.ts';

const CRM_CLOSED = 'The CRM is open only to members with a CRM role';

/**
 * Why the member may not use a module's pages, or null when they may. A module switched off is
 * refused as its operations refuse it: 403 `feature_disabled` with the API's sentence. The CRM,
 * on but not open to the member (no CRM role), is 403 `forbidden`.
 */
export async function moduleRefusal(
  deps: WebDeps,
  settings: WorkspaceSettings,
  session: Session,
  section: ModuleSection,
): Promise<ApiError | null> {
  const off = moduleOffReason(section, settings);
  if (off !== null) return new ApiError('feature_disabled', off);
  if ((await usableModules(deps.db, settings, session)).has(section)) return null;
  return new ApiError('forbidden', CRM_CLOSED);
}

/** Where to go from a module's refusal: who turns it on, or who gives the role. */
function whereToGo(refusal: ApiError, session: Session): Html {
  if (refusal.code !== 'feature_disabled') {
    return html`<li>Ask an administrator for a CRM role: they are given in the workspace file.</li>`;
  }
  return session.isAdmin
    ? html`<li>Switch it on in <a href="/admin/settings">Settings</a>.</li>`
    : html`<li>Ask an administrator to switch it on: they do it in Settings.</li>`;
}

/**
 * The one gate of a module's pages: true when the member may use the module; otherwise the error
 * page is sent (403, the refusal's sentence and where to go from there) and false is returned.
 */
export async function moduleOpen(reply: FastifyReply, deps: WebDeps, session: Session, section: ModuleSection): Promise<boolean> {
  const refusal = await moduleRefusal(deps, await readSettings(deps.db), session, section);
  if (refusal === null) return true;
  await memberErrorPage(reply, deps, session, refusal.status, refusal.message, [], whereToGo(refusal, session));
  return false;
}
