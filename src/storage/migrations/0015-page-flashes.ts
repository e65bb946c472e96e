import { sql, type Kysely } from 'kysely';

// A one-time message for the page a form redirects to (ADR 0021): the new token's secret
// after "Create token", sealed with a key derived from the session cookie, which the database
// never holds; gone with the session, and taken (deleted) by the first page that shows it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table web_flashes (
      session_hash text primary key references web_sessions(id_hash) on delete cascade,
      sealed text not null,
      created_at timestamptz not null
    );
  `.execute(db);
}
