import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Flash } from './components/flash-message.ts';
import type { Session, WebDeps } from './session.ts';
// the table's row type (declaration merging into DB)
import type {} from './tables.ts';

/** How long a message waits for the page it was meant for; a later visit finds nothing. */
export const FLASH_MINUTES = 10;

/** A new token, shown once on the page the form redirects to. */
export interface TokenFlash {
  kind: 'token-created';
  name: string;
  secret: string;
}

/** What a form without script says on the page it redirects to ("You now watch ATR-7"). */
export interface NoticeFlash {
  kind: 'notice';
  flash: Flash;
}

/** One line of a report: the thing it is about, whether it was done, and what happened or why not. */
export interface ReportLine {
  subject: string;
  done: boolean;
  text: string;
}

/** What a form that changed several things says on the page it redirects to: the message, and a line per thing. */
export interface ReportFlash {
  kind: 'report';
  flash: Flash;
  lines: ReportLine[];
}

/** What a form leaves for the page it redirects to. */
export type PageFlash = TokenFlash | NoticeFlash | ReportFlash;

/**
 * A cookie saying a message waits, so that the pages look in the database only then (a page
 * view costs no query for a message that is not there). Holds nothing else.
 */
const WAITING = 'atrium_flash';

/**
 * The key is derived from the session cookie's value, which only the browser holds (the database
 * keeps its hash): a copy of the database cannot read a waiting secret, and neither can another
 * session. Every node on the database can, so the redirect may land anywhere.
 */
function keyOf(session: Session): Buffer {
  return Buffer.from(hkdfSync('sha256', session.cookie, 'atrium', 'page flash', 32));
}

function seal(session: Session, message: PageFlash): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(session), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(message), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function open(session: Session, sealed: string): PageFlash | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(session), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const message = JSON.parse(text) as PageFlash;
    return message.kind === 'token-created' || message.kind === 'notice' || message.kind === 'report' ? message : null;
  } catch {
    return null;
  }
}

/** Leaves a message for this session's next page (replacing one not yet shown). */
export async function leaveFlash(deps: WebDeps, reply: FastifyReply, session: Session, message: PageFlash): Promise<void> {
  const row = { session_hash: session.hash, sealed: seal(session, message), created_at: deps.now().toISOString() };
  await deps.db
    .insertInto('web_flashes')
    .values(row)
    .onConflict((oc) => oc.column('session_hash').doUpdateSet({ sealed: row.sealed, created_at: row.created_at }))
    .execute();
  reply.setCookie(WAITING, '1', {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.publicUrl.startsWith('https://'),
    maxAge: FLASH_MINUTES * 60,
  });
}

/** Takes this session's message, if one waits: deleting it in the same statement, so a reload never shows it again. */
export async function takeFlash(deps: WebDeps, request: FastifyRequest, reply: FastifyReply, session: Session): Promise<PageFlash | null> {
  if (request.cookies[WAITING] === undefined) return null;
  reply.clearCookie(WAITING, { path: '/' });
  const row = await deps.db
    .deleteFrom('web_flashes')
    .where('session_hash', '=', session.hash)
    .returning(['sealed', 'created_at'])
    .executeTakeFirst();
  if (!row) return null;
  if (deps.now().getTime() - new Date(row.created_at).getTime() > FLASH_MINUTES * 60_000) return null;
  return open(session, row.sealed);
}
