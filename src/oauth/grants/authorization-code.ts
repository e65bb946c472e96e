import { sql } from 'kysely';
import { hashSecret } from '../../auth/token-format.ts';
import { checkCodeVerifier } from '../checks/code-verifier.ts';
import { checkResource } from '../checks/resource.ts';
import { single } from '../checks/single-parameters.ts';
import { applicationName, touchClient } from '../clients.ts';
import { InvalidGrant, InvalidRequest, InvalidTarget } from '../errors.ts';
import { issuePair, memberMayUseAgents, revokeConnection, type TokenPair } from '../tokens.ts';
import { LostRace, type GrantContext } from './grant-context.ts';

/**
 * grant_type=authorization_code (spec 5.2). Every check runs before the code is consumed, so a
 * request with another client's code or a wrong verifier leaves it usable (CODE-3, CODE-6); a
 * valid replay revokes the connection the code made (CODE-2). Consumption is one conditional
 * update that exactly one request can win (CODE-4).
 */
export async function exchangeCode(ctx: GrantContext): Promise<TokenPair> {
  const code = single(ctx.params, 'code');
  if (code === undefined) throw new InvalidRequest('code is required');
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('oauth_codes')
    .selectAll()
    .select(sql<boolean>`expires_at > ${now.toISOString()}`.as('live'))
    .where('code_hash', '=', hashSecret(code))
    .executeTakeFirst();
  if (!row) throw new InvalidGrant('The code is unknown, expired or used');
  if (row.client_id !== ctx.client.client_id) {
    ctx.log.warn({ clientId: ctx.client.client_id }, 'authorization code presented by another client');
    throw new InvalidGrant('The code is unknown, expired or used');
  }
  if (!row.live) throw new InvalidGrant('The code has expired; codes work for one minute');
  const redirectUri = single(ctx.params, 'redirect_uri');
  if (redirectUri !== undefined && redirectUri !== row.redirect_uri) {
    throw new InvalidGrant('redirect_uri differs from the one the code was issued for');
  }
  checkCodeVerifier(single(ctx.params, 'code_verifier'), row.code_challenge);
  const resource = single(ctx.params, 'resource', () => new InvalidTarget('resource must not be repeated'));
  if (resource !== undefined && checkResource(resource, ctx.publicUrl) !== row.resource) {
    throw new InvalidTarget('resource differs from the one the member authorized');
  }
  if (row.consumed_at !== null) {
    if (row.grant_id) await revokeConnection(ctx.db, row.grant_id);
    throw new InvalidGrant('The code was already used; the tokens issued for it are revoked');
  }
  if (!(await memberMayUseAgents(ctx.db, row.member_id))) {
    throw new InvalidGrant('The member can no longer use agents here, or the REST API and MCP server are both off');
  }
  const name = applicationName(ctx.client);
  try {
    const pair = await ctx.db.transaction().execute(async (trx) => {
      const grant = await trx
        .insertInto('oauth_grants')
        .values({
          client_id: row.client_id,
          member_id: row.member_id,
          scope: row.scope,
          resource: row.resource,
          created_at: now.toISOString(),
          last_used: now.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const consumed = await trx
        .updateTable('oauth_codes')
        .set({ consumed_at: now.toISOString(), grant_id: grant.id })
        .where('code_hash', '=', row.code_hash)
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      if (Number(consumed.numUpdatedRows) !== 1) throw new LostRace();
      return issuePair(trx, { grantId: grant.id, clientId: row.client_id, memberId: row.member_id, name, scope: row.scope, now });
    });
    await touchClient(ctx.db, row.client_id, now);
    return pair;
  } catch (error) {
    if (!(error instanceof LostRace)) throw error;
    const winner = await ctx.db.selectFrom('oauth_codes').select('grant_id').where('code_hash', '=', row.code_hash).executeTakeFirst();
    if (winner?.grant_id) await revokeConnection(ctx.db, winner.grant_id);
    throw new InvalidGrant('The code was already used; the tokens issued for it are revoked');
  }
}
