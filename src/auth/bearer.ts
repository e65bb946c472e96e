import { sql, type Kysely, type RawBuilder } from 'kysely';
import { ApiError } from '../core/errors.ts';
import type { Principal } from '../core/execute.ts';
import { settingsColumns, settingsFromRow, type SettingsRow } from '../core/settings.ts';
import { grantedLevelsSql, grantRowsSql, type Access, type GrantRow, type MemberAccess } from '../policy/ability.ts';
import { compiledTemplate } from '../storage/compiled-template.ts';
import type { DB } from '../storage/schema.ts';
import { hashSecret, sameHash } from './token-format.ts';

// The scheme name is case-insensitive (RFC 9110 §11.1); the token itself is not.
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i;

interface TokenRow extends SettingsRow {
  token_id: string;
  kind: 'personal' | 'oauth';
  token_name: string;
  access: Access;
  token_hash: string;
  member_id: string;
  display_name: string;
  is_admin: boolean;
  usable: boolean;
  stale_use: boolean;
}

interface AuthRow extends TokenRow {
  grants: GrantRow[];
  levels: string[];
}

export function unauthorized(message = 'A valid bearer token is required'): ApiError {
  return new ApiError('invalid_token', message);
}

/** The token in `Authorization: Bearer …`; nothing else counts (spec 5: no query, cookie or basic). */
export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  return BEARER.exec(authorization)?.[1] ?? null;
}

/** The columns of the token, its member and the workspace settings every lookup reads. */
const tokenColumns = (clock: RawBuilder<unknown>) => sql`
      t.id as token_id, t.kind, t.name as token_name, t.access, t.token_hash,
      m.id as member_id, m.display_name, m.is_admin,
      t.revoked_at is null and g.revoked_at is null
        and (t.expires_at is null or t.expires_at > coalesce(${clock}::timestamptz, now()))
        and m.active and m.email is not null as usable,
      t.last_used_at is null or t.last_used_at < now() - interval '1 minute' as stale_use,
      ${sql.join(settingsColumns.map((c) => sql.ref(`s.${c}`)))}`;

const tokenJoins = sql`
    from tokens t
    join members m on m.id = t.member_id
    -- an OAuth access token also dies with its connection (revoked, or refresh reuse detected)
    left join oauth_grants g on g.id = t.grant_id
    cross join workspace_settings s`;

/**
 * One prepared round trip per request: the token, its member, the workspace settings, and the
 * member's grants and security levels (the first things almost every operation asks). Read on
 * every request, so a revoke, a deactivation or a role change takes effect at once on every node.
 */
const bearerLookup = compiledTemplate(2, (clock: string | null, hash: string) => sql<AuthRow>`/*prepare*/
    select ${tokenColumns(sql`${clock}`)},
      case when m.is_admin then '[]'::json else ${grantRowsSql(sql.ref('m.id'))} end as grants,
      case when m.is_admin then '[]'::json else ${grantedLevelsSql(sql.ref('m.id'))} end as levels
    ${tokenJoins}
    where t.token_hash = ${hash}`);

/**
 * The same without grants and levels, for a token whose grants the process holds. Grants and
 * levels change only with the workspace file, which bumps config_version in the same transaction:
 * while the number read here is the one they were held at, they are current. Left out, their
 * subqueries are not even set up: a third of the lookup's cost in PostgreSQL.
 */
const heldTokenLookup = compiledTemplate(2, (clock: string | null, hash: string) => sql<TokenRow>`/*prepare*/
    select ${tokenColumns(sql`${clock}`)}
    ${tokenJoins}
    where t.token_hash = ${hash}`);

/** A member's grants and levels alone, when config_version moved since the process held them. */
const memberAccessLookup = compiledTemplate(1, (memberId: string) => sql<MemberAccess>`/*prepare*/
    select ${grantRowsSql(sql.ref('m.id'))} as grants, ${grantedLevelsSql(sql.ref('m.id'))} as levels
    from members m where m.id = ${memberId}`);

/** A member's grants and levels as read for one token, and the config_version they were read at. */
interface HeldEntry {
  memberId: string;
  configVersion: number;
  held: MemberAccess;
}

// By token hash, per database handle (a process may serve several, as the tests do). Bounded:
// each entry is a few kilobytes, and a workspace's live tokens are far fewer.
const heldByDatabase = new WeakMap<Kysely<DB>, Map<string, HeldEntry>>();
const MAX_HELD = 10_000;

function heldFor(db: Kysely<DB>): Map<string, HeldEntry> {
  let held = heldByDatabase.get(db);
  if (!held) {
    held = new Map();
    heldByDatabase.set(db, held);
  }
  return held;
}

function hold(cache: Map<string, HeldEntry>, hash: string, row: TokenRow, held: MemberAccess): void {
  // an administrator's grants are never asked; a refused token's are not kept
  if (row.is_admin || !row.usable) return;
  if (cache.size >= MAX_HELD) cache.clear();
  cache.set(hash, { memberId: row.member_id, configVersion: Number(row.config_version), held });
}

/**
 * The token's row, and its member's grants and levels as they are at this request: held by the
 * process while config_version stays, else read again. Never another member's, whatever
 * happened to the entry. One round trip warm; two once after each change to the structure.
 */
async function lookUp(db: Kysely<DB>, cache: Map<string, HeldEntry>, hash: string, clock: string | null): Promise<{ row: TokenRow; held?: MemberAccess } | undefined> {
  const known = cache.get(hash);
  if (!known) {
    const row = (await db.executeQuery(bearerLookup(db, clock, hash))).rows[0];
    if (!row) return undefined;
    const held = { grants: row.grants, levels: row.levels };
    hold(cache, hash, row, held);
    return { row, held };
  }
  const row = (await db.executeQuery(heldTokenLookup(db, clock, hash))).rows[0];
  if (!row) return undefined;
  if (known.memberId === row.member_id && known.configVersion === Number(row.config_version)) return { row, held: known.held };
  if (!row.usable || row.is_admin) {
    cache.delete(hash);
    return { row };
  }
  const held = (await db.executeQuery(memberAccessLookup(db, row.member_id))).rows[0];
  if (held) hold(cache, hash, row, held);
  return { row, held };
}

/**
 * Finds the member and token behind a bearer token, with the workspace settings in the same
 * query, or throws 401 `invalid_token`. A member who can no longer use agents (deactivated, no
 * email address) is refused like an unknown token (spec 5.5). `now` is the service's clock (tests move
 * it past an expiry); without it the database's clock decides.
 */
export async function authenticate(db: Kysely<DB>, authorization: string | undefined, now?: Date): Promise<Principal> {
  const secret = bearerToken(authorization);
  if (!secret) throw unauthorized();
  const hash = hashSecret(secret);
  // The service's clock when it has one (tests move it), else the database's: one statement text either way.
  const clock = now?.toISOString() ?? null;
  const found = await lookUp(db, heldFor(db), hash, clock);
  const row = found?.row;
  if (!found || !row || !sameHash(row.token_hash, hash) || !row.usable) {
    throw unauthorized('The token is unknown, expired or revoked, or its member can no longer use agents');
  }
  if (row.stale_use) {
    // "last used" is shown to the member to the minute; writing it on every request would cost a write per read.
    await db.updateTable('tokens').set({ last_used_at: sql<string>`now()` }).where('id', '=', row.token_id).execute();
  }
  return {
    actor: { memberId: row.member_id, name: row.display_name, isAdmin: row.is_admin },
    agent: { tokenId: row.token_id, kind: row.kind, name: row.token_name, access: row.access },
    settings: settingsFromRow(row),
    held: found.held,
  };
}
