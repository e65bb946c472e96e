import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/storage/schema.ts';
import type { Scenario } from './scenario.ts';

const PAGES = 20_000;
const VERSIONS = 50;
const WORDS = [
  'deploy',
  'rollback',
  'pipeline',
  'database',
  'migration',
  'incident',
  'review',
  'release',
  'customer',
  'search',
  'index',
  'cache',
  'token',
  'board',
  'sprint',
];

/**
 * Space WIKI: 20,000 pages of a few dozen words each, in a tree of 200 folders, read by everyone;
 * space NOTES: one page at version 50. Idempotent across runs.
 */
async function seedKnowledge(db: Kysely<DB>): Promise<Record<string, string>> {
  const existing = await db.selectFrom('spaces').select('id').where('key', '=', 'WIKI').executeTakeFirst();
  if (!existing) {
    const wiki = await db.insertInto('spaces').values({ key: 'WIKI', name: 'Bench wiki' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('space_grants').values({ space_id: wiki.id, level: 'read', everyone: true }).execute();
    await sql`
      insert into pages (space_id, slug, title, kind, rank, body_format, body_text)
      select ${wiki.id}::uuid, 'folder-' || n, 'Folder ' || n, 'folder', lpad(n::text, 6, '0'), null, null from generate_series(1, 200) n
    `.execute(db);
    await sql`
      insert into pages (space_id, slug, title, parent_id, rank, body_format, body_text)
      select ${wiki.id}::uuid, 'page-' || n, 'Page ' || n || ' about ' || (${WORDS}::text[])[1 + n % 15],
        (select id from pages where space_id = ${wiki.id} and slug = 'folder-' || (1 + n % 200)), lpad(n::text, 6, '0'), 'markdown',
        'This page explains ' || (${WORDS}::text[])[1 + n % 15] || ' and ' || (${WORDS}::text[])[1 + (n / 15) % 15]
          || ' for team ' || (n % 97) || '. ' || repeat('Details of the procedure follow with steps and checks. ', 4)
      from generate_series(1, ${PAGES}) n
    `.execute(db);
    const notes = await db.insertInto('spaces').values({ key: 'NOTES', name: 'Bench notes' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('space_grants').values({ space_id: notes.id, level: 'read', everyone: true }).execute();
    const page = await db
      .insertInto('pages')
      .values({
        space_id: notes.id,
        slug: 'long-lived',
        title: 'A long-lived page',
        rank: 'a0',
        version: VERSIONS,
        body_format: 'markdown',
        body_text: 'Version 50 of the runbook: deploy, verify, announce. See CORE-1.',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`
      insert into page_versions (page_id, version, title, body_format, body_text, message)
      select ${page.id}::uuid, v, 'A long-lived page', 'markdown', 'Version ' || v || ' of the runbook.', 'Edit ' || v from generate_series(1, ${VERSIONS}) v
    `.execute(db);
    await sql`analyze pages`.execute(db);
  }
  return {};
}

export const scenarios: Scenario[] = [
  {
    name: 'GET /api/v1/knowledge/search (two words over 20,000 pages)',
    seed: seedKnowledge,
    request: () => ({ method: 'GET', path: '/api/v1/knowledge/search?query=rollback%20pipel&limit=20' }),
    baseline: (db) =>
      sql`
        select p.id, p.title, ts_rank(p.search_vector, q) as rank from pages p, to_tsquery('simple', 'rollback:* & pipel:*') q
        where p.search_vector @@ q and p.archived_at is null order by rank desc limit 20
      `.execute(db),
  },
  {
    name: 'GET /api/v1/knowledge/spaces/NOTES/pages/long-lived (a page at version 50)',
    request: () => ({ method: 'GET', path: '/api/v1/knowledge/spaces/NOTES/pages/long-lived' }),
    baseline: (db) =>
      sql`select p.* from pages p join spaces s on s.id = p.space_id where s.key = 'NOTES' and p.slug = 'long-lived'`.execute(db),
  },
  {
    name: 'GET /api/v1/knowledge/spaces/WIKI/pages/page-12345 (a page in a folder, among 20,000)',
    request: () => ({ method: 'GET', path: '/api/v1/knowledge/spaces/WIKI/pages/page-12345' }),
    baseline: (db) =>
      sql`select p.* from pages p join spaces s on s.id = p.space_id where s.key = 'WIKI' and p.slug = 'page-12345'`.execute(db),
  },
];
