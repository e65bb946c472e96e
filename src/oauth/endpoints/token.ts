import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import { limitAddress, type AddressLimiter } from '../address-limiter.ts';
import { authenticateClient } from '../client-auth.ts';
import { single } from '../checks/single-parameters.ts';
import { registeredGrantTypes } from '../clients.ts';
import { InvalidRequest, UnauthorizedClient, UnsupportedGrantType } from '../errors.ts';
import { exchangeCode } from '../grants/authorization-code.ts';
import { refresh } from '../grants/refresh-token.ts';
import { bodyParameters } from '../request-parameters.ts';

export interface TokenDeps {
  db: Kysely<DB>;
  publicUrl: string;
  now(): Date;
  limiter: AddressLimiter;
}

const GRANTS = { authorization_code: exchangeCode, refresh_token: refresh } as const;

/** POST /oauth/token: client authentication, then the grant. */
export function tokenRoute(app: FastifyInstance, deps: TokenDeps): void {
  app.post('/oauth/token', async (request, reply) => {
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    limitAddress(deps.limiter, request.ip, 'token requests');
    const params = bodyParameters(request.body, request.query);
    const grantType = single(params, 'grant_type');
    if (grantType === undefined) throw new InvalidRequest('grant_type is required');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      throw new UnsupportedGrantType('grant_type must be authorization_code or refresh_token');
    }
    const client = await authenticateClient(deps.db, request.headers.authorization, params);
    if (!registeredGrantTypes(client).includes(grantType))
      throw new UnauthorizedClient(`This client did not register the ${grantType} grant`);
    const pair = await GRANTS[grantType]({ db: deps.db, publicUrl: deps.publicUrl, now: deps.now, client, params, log: request.log });
    return reply.code(200).send(pair);
  });
}
