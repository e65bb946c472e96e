import { sql, type Kysely } from 'kysely';

// A page's words (its `text`, spec 2.7) are worked out from its body when the body is written and
// kept beside it, so that reading a page never parses its body again (a body may hold a million
// characters). NULL: the page was written before; its words are worked out when it is read until
// its body is next written.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pages add column body_words text`.execute(db);
}
