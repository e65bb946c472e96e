import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { readSettings } from '../../core/settings.ts';
import type { DB } from '../../storage/schema.ts';
import { limitAddress, type AddressLimiter } from '../address-limiter.ts';
import { checkClientMetadata } from '../checks/client-metadata.ts';
import { registerClient } from '../clients.ts';
import { InvalidClientMetadata, RegistrationClosed } from '../errors.ts';

export interface RegisterDeps {
  db: Kysely<DB>;
  now(): Date;
  limiter: AddressLimiter;
}

/** POST /oauth/register (RFC 7591, spec 5.2): no account needed; a confidential client's secret is shown once. */
export function registerRoute(app: FastifyInstance, deps: RegisterDeps): void {
  app.post('/oauth/register', async (request, reply) => {
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    limitAddress(deps.limiter, request.ip, 'registrations');
    const settings = await readSettings(deps.db);
    if (!settings.restApi && !settings.mcp) {
      throw new RegistrationClosed('The REST API and the MCP server are both switched off in this workspace');
    }
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      throw new InvalidClientMetadata('Send the client metadata as JSON (Content-Type: application/json)');
    }
    const metadata = checkClientMetadata(request.body);
    const registered = await registerClient(deps.db, metadata, deps.now());
    return reply.code(201).send({
      client_id: registered.clientId,
      client_id_issued_at: registered.issuedAt,
      ...(registered.secret === null ? {} : { client_secret: registered.secret, client_secret_expires_at: 0 }),
      ...metadata,
    });
  });
}
