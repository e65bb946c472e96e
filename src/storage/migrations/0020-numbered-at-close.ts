import { sql, type Kysely } from 'kysely';

// A create took its project's number with the ticket's insert, so the counter row stayed locked
// through every later statement of the create, and creates into one project ran one after the
// other from the insert to the commit (ADR 0040). The ticket is now inserted without a number or a
// key, and the create's closing statement takes the number, sets both and writes what names the
// key (history, notifications, the search document): concurrent creates overlap up to that
// statement. The columns may be NULL only inside the creating transaction, which no one else
// sees; every committed ticket has both.
//
// The search document's text part is computed with the key given, for a statement that sets
// the key in the same update (the row the document would read still has none): the same text as
// ticket_text_document(uuid) of migration 0017, which stays as it is — calling this one from it
// made every comment's document 7x slower (a SQL function calling another is planned on each
// call; measured 1.9 ms against 0.28 ms). A test compares the two documents of a new ticket.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tickets alter column number drop not null, alter column key drop not null;

    create function ticket_text_document(p_ticket uuid, p_key text) returns tsvector
    language sql stable as $fn$
      select
        setweight(to_tsvector('simple'::regconfig, search_words(p_key || ' ' || replace(p_key, '-', ' ') || ' ' || t.summary)), 'A')
        || setweight(to_tsvector('simple'::regconfig, coalesce((
             select string_agg(l.name || ' ' || replace(l.name, '-', ' '), ' ')
             from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id), '')), 'B')
        || setweight(to_tsvector('simple'::regconfig, search_words(
             coalesce(t.description_text, '') || ' ' || coalesce(t.environment_text, '') || ' ' || coalesce((
             select string_agg(v.display, ' ') from ticket_field_values v where v.ticket_id = t.id), ''))), 'C')
      from tickets t where t.id = p_ticket
    $fn$;

  `.execute(db);
}
