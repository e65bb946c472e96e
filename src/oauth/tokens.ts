import { sql, type Kysely } from 'kysely';
import { hashSecret, newSecret, TOKEN_PREFIXES } from '../auth/token-format.ts';
import type { DB } from '../storage/schema.ts';
import { ACCESS_TOKEN_LIFETIME, REFRESH_TOKEN_LIFETIME, secondsFrom } from './lifetimes.ts';
import { accessOf } from './scope.ts';

export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface PairRequest {
  grantId: string;
  clientId: string;
  memberId: string;
  /** The application's name: history and GET /me show it as the agent. */
  name: string;
  /** The scope of this access token (at most the connection's). */
  scope: string;
  now: Date;
}

/**
 * Mints an access/refresh pair as one row of `tokens` (kind 'oauth'): bearer authentication finds
 * the access token like any other token; the refresh token lives beside it and is valid thirty
 * days from this use. Only digests are stored.
 */
export async function issuePair(db: Kysely<DB>, request: PairRequest): Promise<TokenPair> {
  const access = newSecret(TOKEN_PREFIXES.oauthAccess);
  const refresh = newSecret(TOKEN_PREFIXES.oauthRefresh);
  await db
    .insertInto('tokens')
    .values({
      member_id: request.memberId,
      kind: 'oauth',
      name: request.name,
      access: accessOf(request.scope),
      token_hash: hashSecret(access),
      expires_at: secondsFrom(request.now, ACCESS_TOKEN_LIFETIME),
      client_id: request.clientId,
      grant_id: request.grantId,
      refresh_hash: hashSecret(refresh),
      refresh_expires_at: secondsFrom(request.now, REFRESH_TOKEN_LIFETIME),
      created_at: request.now.toISOString(),
    })
    .execute();
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME, refresh_token: refresh, scope: request.scope };
}

/**
 * Ends a connection: the grant is marked first (a refresh locks and re-checks it before it
 * commits), then every token descended from it; grant before tokens, the order a refresh locks them.
 */
export async function revokeConnection(db: Kysely<DB>, grantId: string): Promise<void> {
  await db
    .updateTable('oauth_grants')
    .set({ revoked_at: sql<string>`now()` })
    .where('id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
  await db
    .updateTable('tokens')
    .set({ revoked_at: sql<string>`now()` })
    .where('grant_id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Whether a member may still connect agents: active, with an email address, and a way in switched on (spec 5.2, 5.5). */
export async function memberMayUseAgents(db: Kysely<DB>, memberId: string): Promise<boolean> {
  const row = await db
    .selectFrom('members as m')
    .crossJoin('workspace_settings as s')
    .select(sql<boolean>`m.active and m.email is not null and (s.rest_api or s.mcp)`.as('allowed'))
    .where('m.id', '=', memberId)
    .executeTakeFirst();
  return row?.allowed === true;
}
