import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { deepFreeze } from '../core/deep-freeze.ts';
import { ApiError } from '../core/errors.ts';
import type { PendingTokenCheck } from '../core/context.ts';
import type { Principal } from '../core/execute.ts';
import { carriesCheck, tokenCheckOf, TokenCheckNotPassed, type TokenCheckValues } from '../core/token-check.ts';
import { settingsColumns, settingsFromRow, type SettingsRow } from '../core/settings.ts';
import { grantedLevelsSql, grantRowsSql, type Access, type GrantRow } from '../policy/ability.ts';
import { compiledTemplate } from '../storage/compiled-template.ts';
import type { DB } from '../storage/schema.ts';
import { hashSecret, sameHash } from './token-format.ts';

// The scheme name is case-insensitive (RFC 9110 §11.1); the token itself is not.
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i;

/** What every lookup reads: whether the token may be used now, and whose it is. */
interface TokenCheck {
  token_id: string;
  token_hash: string;
  member_id: string;
  usable: boolean;
  stale_use: boolean;
  config_version: SettingsRow['config_version'];
}

interface AuthRow extends TokenCheck, SettingsRow {
  kind: 'personal' | 'oauth';
  token_name: string;
  access: Access;
  display_name: string;
  is_admin: boolean;
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

/**
 * One prepared round trip: the token, its member, the workspace settings, and the member's grants
 * and security levels (the first things almost every operation asks), for a token the process
 * does not hold at the current config_version.
 */
const bearerLookup = compiledTemplate(
  2,
  (clock: string | null, hash: string) => sql<AuthRow>`/*prepare*/
    select c.*,
      t.kind, t.name as token_name, t.access, m.display_name, m.is_admin,
      ${sql.join(settingsColumns.filter((c) => c !== 'config_version').map((c) => sql.ref(`s.${c}`)))},
      case when m.is_admin then '[]'::json else ${grantRowsSql(sql.ref('m.id'))} end as grants,
      case when m.is_admin then '[]'::json else ${grantedLevelsSql(sql.ref('m.id'))} end as levels
    from ${tokenCheckOf([hash, clock])} c
    join tokens t on t.id = c.token_id
    join members m on m.id = c.member_id
    cross join workspace_settings s`,
);

/**
 * For a token the process holds: only what may change without config_version moving, read on
 * every request so that a revoke, an expiry or a deactivation takes effect at once on every node.
 * The rest of the principal is written only with config_version bumped in the same transaction
 * (the workspace file, the CLI, a switch: members' names and administrator flags, settings,
 * grants and levels), or never changes once issued (a token's name, kind and access): while the
 * number read here is the one the principal was read at, the principal is current. Five columns
 * instead of twenty, and no grants' subqueries for PostgreSQL to set up.
 */
const heldTokenCheck = compiledTemplate(
  2,
  (clock: string | null, hash: string) => sql<TokenCheck>`/*prepare*/
    select * from ${tokenCheckOf([hash, clock])}`,
);

/** A principal as read for one token, and the config_version it was read at. */
interface HeldEntry {
  configVersion: number;
  principal: Principal;
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

/** The principal a full lookup read, frozen: every request of the token shares it. */
function principalOf(row: AuthRow): Principal {
  return deepFreeze({
    actor: { memberId: row.member_id, name: row.display_name, isAdmin: row.is_admin },
    agent: { tokenId: row.token_id, kind: row.kind, name: row.token_name, access: row.access },
    settings: settingsFromRow(row),
    held: { grants: row.grants, levels: row.levels },
  });
}

/** What a token's check says of a principal the process holds for it. */
type Verdict = 'current' | 'stale' | 'refused';

function verdictOf(known: HeldEntry, check: TokenCheck | undefined, hash: string): Verdict {
  if (!check || !sameHash(check.token_hash, hash) || !check.usable) return 'refused';
  if (check.member_id === known.principal.actor.memberId && Number(check.config_version) === known.configVersion) return 'current';
  return 'stale';
}

/** "last used" is shown to the member to the minute; writing it on every request would cost a write per read. */
async function noteUse(db: Kysely<DB>, check: TokenCheck): Promise<void> {
  if (check.stale_use) await db.updateTable('tokens').set({ last_used_at: sql<string>`now()` }).where('id', '=', check.token_id).execute();
}

/**
 * The token's check and its principal as they are at this request: held by the process while
 * config_version and the member stay, else read in full. Never another member's, whatever
 * happened to the entry. One round trip warm; two once after each change to the structure.
 */
async function lookUp(
  db: Kysely<DB>,
  cache: Map<string, HeldEntry>,
  hash: string,
  clock: string | null,
): Promise<{ check: TokenCheck; principal: Principal } | undefined> {
  const known = cache.get(hash);
  if (known) {
    const check = (await db.executeQuery(heldTokenCheck(db, clock, hash))).rows[0];
    const verdict = verdictOf(known, check, hash);
    if (verdict === 'refused') cache.delete(hash);
    if (!check) return undefined;
    if (verdict !== 'stale') return { check, principal: known.principal };
  }
  const row = (await db.executeQuery(bearerLookup(db, clock, hash))).rows[0];
  if (!row) return undefined;
  const principal = principalOf(row);
  // a refused token is not kept
  if (row.usable) {
    if (cache.size >= MAX_HELD) cache.clear();
    cache.set(hash, { configVersion: Number(row.config_version), principal });
  } else {
    cache.delete(hash);
  }
  return { check: row, principal };
}

const REFUSED = 'The token is unknown, expired or revoked, or its member can no longer use agents';

/** The 401 of a token that was found but may not be used now. */
export function tokenRefused(): ApiError {
  return unauthorized(REFUSED);
}

/** The token's hash and the clock its expiry is judged by, or 401 when the header holds no bearer token. */
function presented(authorization: string | undefined, now?: Date): { hash: string; clock: string | null } {
  const secret = bearerToken(authorization);
  if (!secret) throw unauthorized();
  // The service's clock when it has one (tests move it), else the database's: one statement text either way.
  return { hash: hashSecret(secret), clock: now?.toISOString() ?? null };
}

async function checkedPrincipal(db: Kysely<DB>, hash: string, clock: string | null): Promise<Principal> {
  const found = await lookUp(db, heldFor(db), hash, clock);
  if (!found || !sameHash(found.check.token_hash, hash) || !found.check.usable) throw tokenRefused();
  await noteUse(db, found.check);
  return found.principal;
}

/**
 * Finds the member and token behind a bearer token, with the workspace settings in the same
 * query, or throws 401 `invalid_token`. A member who can no longer use agents (deactivated, no
 * email address) is refused like an unknown token (spec 5.5). `now` is the service's clock (tests move
 * it past an expiry); without it the database's clock decides.
 */
export async function authenticate(db: Kysely<DB>, authorization: string | undefined, now?: Date): Promise<Principal> {
  const { hash, clock } = presented(authorization, now);
  return checkedPrincipal(db, hash, clock);
}

/**
 * The check of a token whose principal the process holds, made after the read it admitted rather
 * than before: the read's statement carries it as one more column (tokenCheckColumn over its
 * `values`, then `offer` what it held), or `settle` makes it alone. Nothing is answered before it
 * settles; a refused token gets its 401 and a stale principal (config_version moved) has the read
 * made again. The read only reads, so running it for a token that turns out revoked shows nothing
 * and changes nothing.
 *
 * A change that waits for it sends every statement `through` it: the first, when it is a plain
 * SELECT carrying the check, goes at once; every other waits for the verdict and is never sent
 * unless the principal is current. So the change's first read carries the check, and nothing it
 * writes reaches the database for a token refused or a principal gone stale; the change is then
 * refused, or made again for the principal as it is now, as a read is.
 */
export class DeferredTokenCheck implements PendingTokenCheck {
  readonly #db: Kysely<DB>;
  readonly values: TokenCheckValues;
  readonly #known: HeldEntry;
  /** What a read's statement found; undefined while none carried the check. */
  #offered: TokenCheck | null | undefined;
  #verdict: Promise<Verdict> | undefined;
  /** Whether a statement went, or waits, through the gate: only the first may carry the check. */
  #used = false;
  /** The carrying statement's end, whatever it was. */
  #carried: Promise<unknown> | undefined;
  /** Resolves once statements may go: the principal is current. */
  #open: Promise<void> | undefined;

  constructor(db: Kysely<DB>, hash: string, clock: string | null, known: HeldEntry) {
    this.#db = db;
    this.values = [hash, clock];
    this.#known = known;
  }

  offer(value: unknown): void {
    this.#offered = typeof value === 'string' ? (JSON.parse(value) as TokenCheck) : null;
  }

  /** The verdict, once: from the offered column when a statement carried it, else from a statement of its own. */
  settle(): Promise<Verdict> {
    this.#verdict ??= this.#judge();
    return this.#verdict;
  }

  through<T>(query: CompiledQuery | null, send: () => Promise<T>): Promise<T> {
    const first = !this.#used;
    this.#used = true;
    if (first && query && carriesCheck(query, this.values)) {
      const sent = send();
      this.#carried = sent.catch(() => {});
      return sent;
    }
    this.#open ??= this.#opened();
    return this.#open.then(send);
  }

  async #opened(): Promise<void> {
    // the carrying read's row, offered by its caller as it returns, settles without a round trip
    await this.#carried;
    if ((await this.settle()) !== 'current') throw new TokenCheckNotPassed();
  }

  async #judge(): Promise<Verdict> {
    const [hash, clock] = this.values;
    const check =
      this.#offered !== undefined
        ? (this.#offered ?? undefined)
        : (await this.#db.executeQuery(heldTokenCheck(this.#db, clock, hash))).rows[0];
    const verdict = verdictOf(this.#known, check, hash);
    if (verdict === 'refused') heldFor(this.#db).delete(hash);
    if (verdict === 'current' && check) await noteUse(this.#db, check);
    return verdict;
  }
}

/**
 * A principal for a read: the one the process holds for the token, with its check deferred (see
 * DeferredTokenCheck), or, for a token not held, checked and read in full now.
 */
export async function authenticateDeferred(
  db: Kysely<DB>,
  authorization: string | undefined,
  now?: Date,
): Promise<{ principal: Principal; check: DeferredTokenCheck | null }> {
  const { hash, clock } = presented(authorization, now);
  const known = heldFor(db).get(hash);
  if (known) return { principal: known.principal, check: new DeferredTokenCheck(db, hash, clock, known) };
  return { principal: await checkedPrincipal(db, hash, clock), check: null };
}
