import { sql, type Kysely } from 'kysely';

// A NOTIFY makes its transaction take one lock for the whole PostgreSQL server at commit and hold
// it while the commit is flushed to disk, so every change that announced itself committed one at
// a time (ADR 0022: 16 clients committing an insert reach about 4,000/s, the same with a NOTIFY
// about 700/s). A change now announces itself only when some node listens for events — a node
// listens on a connection of its own named `atrium events` (storage/database.ts) while it has an
// open page's event stream — so writes no one watches commit side by side. PGlite is one
// process and its session says `atrium.events_always`: it always announces.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function history_event() returns trigger language plpgsql as $fn$
    begin
      if current_setting('atrium.events_always', true) = 'on' or exists (
           select 1 from pg_stat_activity where datname = current_database() and application_name = 'atrium events') then
        perform pg_notify('atrium_events', json_build_object('entity_type', new.entity_type, 'entity_id', new.entity_id, 'kind', new.kind)::text);
      end if;
      return null;
    end
    $fn$;
  `.execute(db);
}
