import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../src/auth/token-format.ts';
import type { BenchEnv, BenchRequest, Scenario } from './scenario.ts';

// The pages' server time (WEB.md §3: HTML in under 50 ms p95 on the 100,000-ticket set): home,
// a project, a ticket and the ticket search (with filters, a sort and its bulk form), read as the
// bench member logged in, on the tickets scenarios' data.

export const PAGE_TICKET = 'ATR-1234';
export const PAGE_PROJECT = 'ATR';

/**
 * The page paths measured, by name; `bench/pages.ts` measures every entry (and adds the ticket,
 * board and backlog pages it finds in the data).
 */
export const PAGES: Record<string, string> = {
  home: '/',
  project: `/projects/${PAGE_PROJECT}`,
  ticket: `/browse/${PAGE_TICKET}`,
  // a page of 50 open tickets of one project by priority: the search, and the bulk form's choices for them
  search: `/tickets?project=${PAGE_PROJECT}&status=open&sort=priority&limit=50`,
};

/** A browser session of the bench member: the cookie a logged-in page request carries. */
export async function seedPageSession(db: Parameters<NonNullable<Scenario['seed']>>[0], env: BenchEnv): Promise<{ pageCookie: string }> {
  const cookie = randomBytes(32).toString('base64url');
  await db
    .insertInto('web_sessions')
    .values({ id_hash: hashSecret(cookie), member_id: env.memberId, expires_at: new Date(Date.now() + 24 * 3600_000).toISOString() })
    .execute();
  return { pageCookie: cookie };
}

const page =
  (path: string) =>
  (env: BenchEnv): BenchRequest => ({
    method: 'GET',
    path,
    headers: { cookie: `atrium_session=${env.pageCookie}`, accept: 'text/html' },
  });

export const scenarios: Scenario[] = [
  { name: 'GET / (home page)', seed: seedPageSession, request: page(PAGES.home!) },
  { name: `GET ${PAGES.project} (project page)`, request: page(PAGES.project!) },
  { name: `GET ${PAGES.ticket} (ticket page)`, request: page(PAGES.ticket!) },
  { name: `GET ${PAGES.search} (ticket search page)`, request: page(PAGES.search!) },
];
