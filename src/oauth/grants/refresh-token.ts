import { sql } from 'kysely';
import { hashSecret } from '../../auth/token-format.ts';
import { checkResource } from '../checks/resource.ts';
import { single } from '../checks/single-parameters.ts';
import { applicationName, touchClient } from '../clients.ts';
import { InvalidGrant, InvalidRequest, InvalidScope, InvalidTarget } from '../errors.ts';
import { accessOf, parseScope, scopeFor } from '../scope.ts';
import { issuePair, memberMayUseAgents, revokeConnection, type TokenPair } from '../tokens.ts';
import { LostRace, type GrantContext } from './grant-context.ts';

const REFUSED = 'The refresh token is unknown, expired, revoked or already used';

/**
 * grant_type=refresh_token (spec 5.2): rotates the pair, and the old access and refresh tokens
 * stop at once. A rotated refresh token presented again revokes the whole connection (strict
 * reuse detection, checklist decision 2); another client's token is refused without revoking.
 */
export async function refresh(ctx: GrantContext): Promise<TokenPair> {
  const presented = single(ctx.params, 'refresh_token');
  if (presented === undefined) throw new InvalidRequest('refresh_token is required');
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('tokens as t')
    .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
    .select([
      't.id',
      't.client_id',
      't.member_id',
      't.revoked_at',
      't.rotated_at',
      'g.id as grant_id',
      'g.scope',
      'g.resource',
      'g.revoked_at as grant_revoked_at',
      sql<boolean>`t.refresh_expires_at > ${now.toISOString()}`.as('live'),
    ])
    .where('t.kind', '=', 'oauth')
    .where('t.refresh_hash', '=', hashSecret(presented))
    .executeTakeFirst();
  if (!row) throw new InvalidGrant(REFUSED);
  if (row.client_id !== ctx.client.client_id) {
    ctx.log.warn({ clientId: ctx.client.client_id }, 'refresh token presented by another client');
    throw new InvalidGrant(REFUSED);
  }
  if (row.rotated_at !== null) {
    await revokeConnection(ctx.db, row.grant_id);
    throw new InvalidGrant('The refresh token was already used; the connection is revoked');
  }
  if (row.revoked_at !== null || row.grant_revoked_at !== null || !row.live) throw new InvalidGrant(REFUSED);

  let scope = row.scope;
  const asked = single(ctx.params, 'scope');
  if (asked !== undefined) {
    const access = parseScope(asked);
    if (!access || (access === 'write' && accessOf(row.scope) !== 'write')) {
      throw new InvalidScope('scope may not be wider than what the member granted');
    }
    scope = scopeFor(access);
  }
  const resource = single(ctx.params, 'resource', () => new InvalidTarget('resource must not be repeated'));
  if (resource !== undefined && checkResource(resource, ctx.publicUrl) !== row.resource) {
    throw new InvalidTarget('resource differs from the one the member authorized');
  }
  if (!(await memberMayUseAgents(ctx.db, row.member_id))) {
    throw new InvalidGrant('The member can no longer use agents here, or the REST API and MCP server are both off');
  }
  const name = applicationName(ctx.client);
  try {
    const pair = await ctx.db.transaction().execute(async (trx) => {
      // The connection first (a revocation marks it first too), so revoke and refresh cannot both win.
      const live = await trx
        .updateTable('oauth_grants')
        .set({ last_used: now.toISOString() })
        .where('id', '=', row.grant_id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(live.numUpdatedRows) !== 1) throw new InvalidGrant(REFUSED);
      const rotated = await trx
        .updateTable('tokens')
        .set({ revoked_at: now.toISOString(), rotated_at: now.toISOString() })
        .where('id', '=', row.id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(rotated.numUpdatedRows) !== 1) throw new LostRace();
      return issuePair(trx, {
        grantId: row.grant_id,
        clientId: row.client_id ?? ctx.client.client_id,
        memberId: row.member_id,
        name,
        scope,
        now,
      });
    });
    await touchClient(ctx.db, ctx.client.client_id, now);
    return pair;
  } catch (error) {
    if (!(error instanceof LostRace)) throw error;
    await revokeConnection(ctx.db, row.grant_id);
    throw new InvalidGrant('The refresh token was already used; the connection is revoked');
  }
}
