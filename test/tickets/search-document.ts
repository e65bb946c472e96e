import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/storage/schema.ts';

/** Whether a ticket's search document is the one a rebuild from its rows, comments included, writes. */
export async function documentRebuilt(db: Kysely<DB>, key: string): Promise<boolean | undefined> {
  const rows = await sql<{ same: boolean }>`
    select search_vector = ticket_text_document(id) || ticket_comments_document(id) as same from tickets where key = ${key}`.execute(db);
  return rows.rows[0]?.same;
}

/** The words of a ticket's search document, for a value no query can single out (a choice many tickets hold). */
export async function documentWords(db: Kysely<DB>, key: string): Promise<string[]> {
  const rows = await sql<{ words: string[] }>`select tsvector_to_array(search_vector) as words from tickets where key = ${key}`.execute(db);
  return rows.rows[0]?.words ?? [];
}
