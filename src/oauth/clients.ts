import { sql, type Kysely, type Selectable } from 'kysely';
import { hashSecret, newSecret, TOKEN_PREFIXES } from '../auth/token-format.ts';
import type { Access } from '../policy/ability.ts';
import type { DB } from '../storage/schema.ts';
import type { ClientMetadata } from './checks/client-metadata.ts';
import { UNUSED_CLIENT_DAYS } from './lifetimes.ts';
import { accessOf } from './scope.ts';
import type { OAuthClientsTable } from './tables.ts';

export type Client = Selectable<OAuthClientsTable>;

export interface RegisteredClient {
  clientId: string;
  secret: string | null;
  issuedAt: number;
}

/** Stores a client; a confidential one gets a `svc_cs_` secret, returned once and kept as a hash. */
export async function registerClient(db: Kysely<DB>, metadata: ClientMetadata, now: Date): Promise<RegisteredClient> {
  const clientId = newSecret(TOKEN_PREFIXES.clientId);
  const secret = metadata.token_endpoint_auth_method === 'none' ? null : newSecret(TOKEN_PREFIXES.clientSecret);
  const { redirect_uris, client_name, token_endpoint_auth_method, ...rest } = metadata;
  await db
    .insertInto('oauth_clients')
    .values({
      client_id: clientId,
      secret_hash: secret === null ? null : hashSecret(secret),
      token_endpoint_auth_method,
      client_name: client_name ?? null,
      redirect_uris,
      metadata: JSON.stringify(rest),
      created_at: now.toISOString(),
    })
    .execute();
  return { clientId, secret, issuedAt: Math.floor(now.getTime() / 1000) };
}

export async function findClient(db: Kysely<DB>, clientId: string): Promise<Client | undefined> {
  return db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/** The name the member and the history see: the application's own claim. */
export function applicationName(client: Pick<Client, 'client_name'>): string {
  return client.client_name ?? 'Unnamed application';
}

export function registeredGrantTypes(client: Client): string[] {
  const grantTypes = (client.metadata as { grant_types?: unknown }).grant_types;
  return Array.isArray(grantTypes) ? (grantTypes as string[]) : ['authorization_code', 'refresh_token'];
}

/** The widest access the client registered for (its `scope` metadata; read and write by default). */
export function registeredAccess(client: Client): Access {
  const scope = (client.metadata as { scope?: unknown }).scope;
  return typeof scope === 'string' ? accessOf(scope) : 'write';
}

export async function touchClient(db: Kysely<DB>, clientId: string, now: Date): Promise<void> {
  await db.updateTable('oauth_clients').set({ last_used: now.toISOString() }).where('client_id', '=', clientId).execute();
}

/**
 * Removes clients unused for thirty days that hold no live connection and no pending code (spec
 * 5.2: a later invalid_client means register again). Returns how many went.
 */
export async function removeUnusedClients(db: Kysely<DB>, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - UNUSED_CLIENT_DAYS * 24 * 3600 * 1000).toISOString();
  const result = await db
    .deleteFrom('oauth_clients as c')
    .where(sql<boolean>`coalesce(c.last_used, c.created_at) < ${cutoff}`)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('oauth_grants as g').select('g.id').whereRef('g.client_id', '=', 'c.client_id').where('g.revoked_at', 'is', null),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('oauth_codes as o')
            .select('o.code_hash')
            .whereRef('o.client_id', '=', 'c.client_id')
            .where('o.consumed_at', 'is', null)
            .where('o.expires_at', '>', now.toISOString()),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Forgets what can no longer be used: codes and consent requests a day past their expiry, web
 * sessions past theirs, and OAuth token pairs whose refresh token has expired (a rotated refresh
 * token must be remembered until then, for reuse detection).
 */
export async function removeExpiredRecords(db: Kysely<DB>, now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000).toISOString();
  await db.deleteFrom('oauth_codes').where('expires_at', '<', dayAgo).execute();
  await db.deleteFrom('oauth_consents').where('expires_at', '<', dayAgo).execute();
  await db.deleteFrom('web_sessions').where('expires_at', '<', now.toISOString()).execute();
  await db.deleteFrom('tokens').where('kind', '=', 'oauth').where('refresh_expires_at', '<', now.toISOString()).execute();
}
