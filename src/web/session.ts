import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { hashSecret } from '../auth/token-format.ts';
import type { DB } from '../storage/schema.ts';
import type { Runtime } from '../core/execute.ts';
import type { Registry } from '../core/registry.ts';
import type { StructureStore } from '../core/structure-cache.ts';
import { unreadCountSql } from '../notifications/inbox.ts';
import { PREPARE } from '../storage/prepared.ts';
import type { LiveEvents } from '../notifications/live-events.ts';

/** Everything the pages need from the service. */
export interface WebDeps {
  db: Kysely<DB>;
  structure: StructureStore;
  publicUrl: string;
  now(): Date;
}

/** What the member's own pages need on top (the OAuth server's pages do without). */
export interface PagesDeps extends WebDeps {
  /** Whether the operator configured email delivery (SMTP_URL). */
  mail: boolean;
  /** Committed changes as they happen, for the pages' event stream. */
  liveEvents: LiveEvents;
  /** What runs an operation for every door: the pages' actions run through it too (web/actions.ts). */
  runtime: Runtime;
  /** The operations, web-only ones included. */
  registry: Registry;
}

export const SESSION_HOURS = 12;

export interface Session {
  /** The cookie's value: CSRF tokens are derived from it, the database holds only its hash. */
  cookie: string;
  hash: string;
  memberId: string;
  name: string;
  isAdmin: boolean;
  /** The member's IANA time zone: every time a page shows is in it. */
  timezone: string;
  /** Unread notifications, for the count in every page's header (read with the session, one round trip). */
  unread: number;
}

function secure(deps: WebDeps): boolean {
  return deps.publicUrl.startsWith('https://');
}

/** `__Host-` names need Secure, so plain-http installations (and tests) use bare names. */
function cookieName(deps: WebDeps, name: 'session' | 'pre'): string {
  return `${secure(deps) ? '__Host-' : ''}atrium_${name}`;
}

function setCookie(reply: FastifyReply, deps: WebDeps, name: 'session' | 'pre', value: string, maxAge: number): void {
  reply.setCookie(cookieName(deps, name), value, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(deps), maxAge });
}

/**
 * A CSRF token bound to a cookie the attacker cannot read and to what the form is for. Forms
 * carry it; the POST recomputes it from the cookie it came with.
 */
export function csrfToken(cookie: string, purpose: string): string {
  return createHash('sha256').update(`csrf\0${purpose}\0${cookie}`).digest('base64url');
}

export function csrfMatches(cookie: string, purpose: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfToken(cookie, purpose));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The path a form posts to, as its token binds it: decoded, so `%2D` and `-` are one action. */
function actionOf(path: string): string {
  const bare = path.split('?')[0] ?? '/';
  try {
    return decodeURI(bare);
  } catch {
    return bare;
  }
}

/**
 * The CSRF token of one form of the member's pages: bound to the session's cookie and to the
 * action (the path it posts to), so a token read from one form is worth nothing at another.
 */
export function formToken(session: Pick<Session, 'cookie'>, action: string): string {
  return csrfToken(session.cookie, `form\0${actionOf(action)}`);
}

export function formTokenMatches(session: Pick<Session, 'cookie'>, path: string, presented: unknown): boolean {
  return csrfMatches(session.cookie, `form\0${actionOf(path)}`, presented);
}

/** The logged-in member of this browser, or null. */
export async function currentSession(request: FastifyRequest, deps: WebDeps): Promise<Session | null> {
  const cookie = request.cookies[cookieName(deps, 'session')];
  if (!cookie) return null;
  const hash = hashSecret(cookie);
  // prepared: every page asks it, and its count's visibility rules are most of its planning
  const row = await deps.db
    .selectFrom('web_sessions as s')
    .modifyFront(sql.raw(PREPARE))
    .innerJoin('members as m', 'm.id', 's.member_id')
    .select(['m.id', 'm.display_name', 'm.is_admin', 'm.timezone'])
    .select(unreadCountSql(sql.ref('m.id')).as('unread'))
    .where('s.id_hash', '=', hash)
    .where('s.expires_at', '>', deps.now().toISOString())
    .where('m.active', '=', true)
    .executeTakeFirst();
  if (!row) return null;
  return {
    cookie,
    hash,
    memberId: row.id,
    name: row.display_name,
    isAdmin: row.is_admin,
    timezone: row.timezone,
    unread: Number(row.unread ?? 0),
  };
}

/** Starts a session with a new cookie value, so a value planted before login is worthless. */
export async function startSession(reply: FastifyReply, deps: WebDeps, memberId: string): Promise<void> {
  const cookie = randomBytes(32).toString('base64url');
  await deps.db
    .insertInto('web_sessions')
    .values({
      id_hash: hashSecret(cookie),
      member_id: memberId,
      expires_at: new Date(deps.now().getTime() + SESSION_HOURS * 3600_000).toISOString(),
    })
    .execute();
  setCookie(reply, deps, 'session', cookie, SESSION_HOURS * 3600);
  reply.clearCookie(cookieName(deps, 'pre'), { path: '/' });
}

export async function endSession(reply: FastifyReply, deps: WebDeps, session: Session): Promise<void> {
  await deps.db.deleteFrom('web_sessions').where('id_hash', '=', session.hash).execute();
  reply.clearCookie(cookieName(deps, 'session'), { path: '/' });
}

/** The anonymous browser's cookie that the login form's CSRF token is bound to. */
export function preSession(request: FastifyRequest, reply: FastifyReply, deps: WebDeps): string {
  const existing = request.cookies[cookieName(deps, 'pre')];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const cookie = randomBytes(32).toString('base64url');
  setCookie(reply, deps, 'pre', cookie, 3600);
  return cookie;
}

export function preSessionCookie(request: FastifyRequest, deps: WebDeps): string | undefined {
  return request.cookies[cookieName(deps, 'pre')];
}

/**
 * A POST from another origin is refused whatever cookies it carries (SameSite=Lax is not enough
 * between sibling hosts). `Origin: null` is what browsers send from our own pages under
 * `Referrer-Policy: no-referrer`, so it is left to the CSRF token.
 */
export function foreignOrigin(request: FastifyRequest, deps: WebDeps): boolean {
  const origin = request.headers.origin;
  return origin !== undefined && origin !== 'null' && origin !== new URL(deps.publicUrl).origin;
}
