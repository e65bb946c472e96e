import type { FastifyInstance } from 'fastify';
import { hashSecret } from '../../auth/token-format.ts';
import { authenticateClient } from '../client-auth.ts';
import { single } from '../checks/single-parameters.ts';
import { InvalidRequest } from '../errors.ts';
import { revokeConnection } from '../tokens.ts';
import { limitAddress } from '../address-limiter.ts';
import { bodyParameters } from '../request-parameters.ts';
import type { TokenDeps } from './token.ts';

/**
 * POST /oauth/revoke (RFC 7009): 200 with an empty body whatever the token's state. Either token
 * ends the whole connection (checklist decision 6). Another client's token is left alone, silently,
 * so the endpoint reveals nothing about tokens that are not the caller's.
 */
export function revokeRoute(app: FastifyInstance, deps: TokenDeps): void {
  app.post('/oauth/revoke', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    limitAddress(deps.limiter, request.ip, 'token requests');
    const params = bodyParameters(request.body, request.query);
    const token = single(params, 'token');
    if (token === undefined) throw new InvalidRequest('token is required');
    const client = await authenticateClient(deps.db, request.headers.authorization, params);
    const hash = hashSecret(token);
    const row = await deps.db
      .selectFrom('tokens')
      .select(['grant_id', 'client_id'])
      .where('kind', '=', 'oauth')
      .where((eb) => eb.or([eb('token_hash', '=', hash), eb('refresh_hash', '=', hash)]))
      .executeTakeFirst();
    if (row?.grant_id && row.client_id === client.client_id) await revokeConnection(deps.db, row.grant_id);
    return reply.code(200).send();
  });
}
