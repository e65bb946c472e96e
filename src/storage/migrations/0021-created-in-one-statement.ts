import { sql, type Kysely } from 'kysely';

// A create inserted its ticket without a number, then numbered it in its closing statement
// (migration 0020), so every ticket was written twice: each of its indexes got a second entry and
// its foreign keys were checked again (ADR 0040). A create is now one statement that takes the
// number and inserts the ticket with it, its links, history and notifications, so the columns are
// never NULL again.
//
// That statement cannot read the rows it writes, so the new ticket's search document is computed
// from the values it inserts (ticket_text_document_of), not from its row and link tables as
// ticket_text_document(uuid) of migration 0017 does. The two must agree, so the rebuild now
// takes labels in name order and custom fields in field order, as the values are given; a test
// compares a new ticket's document with a rebuild's. The rebuild keeps its own body: calling one
// function from another made every document 7x slower (migration 0020).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tickets alter column number set not null, alter column key set not null;

    drop function ticket_text_document(uuid, text);

    -- p_labels: the label names (any order); p_fields: the custom fields' displayed values, in the order of their field ids
    create function ticket_text_document_of(p_key text, p_summary text, p_labels text[], p_description text, p_environment text, p_fields text[])
    returns tsvector language sql stable as $fn$
      select
        setweight(to_tsvector('simple'::regconfig, search_words(p_key || ' ' || replace(p_key, '-', ' ') || ' ' || p_summary)), 'A')
        || setweight(to_tsvector('simple'::regconfig, coalesce((
             select string_agg(l || ' ' || replace(l, '-', ' '), ' ' order by l) from unnest(p_labels) l), '')), 'B')
        || setweight(to_tsvector('simple'::regconfig, search_words(
             coalesce(p_description, '') || ' ' || coalesce(p_environment, '') || ' ' || coalesce(array_to_string(p_fields, ' '), ''))), 'C')
    $fn$;

    create or replace function ticket_text_document(p_ticket uuid) returns tsvector
    language sql stable as $fn$
      select
        setweight(to_tsvector('simple'::regconfig, search_words(t.key || ' ' || replace(t.key, '-', ' ') || ' ' || t.summary)), 'A')
        || setweight(to_tsvector('simple'::regconfig, coalesce((
             select string_agg(l.name || ' ' || replace(l.name, '-', ' '), ' ' order by l.name)
             from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id), '')), 'B')
        || setweight(to_tsvector('simple'::regconfig, search_words(
             coalesce(t.description_text, '') || ' ' || coalesce(t.environment_text, '') || ' ' || coalesce((
             select string_agg(v.display, ' ' order by v.field_id) from ticket_field_values v where v.ticket_id = t.id), ''))), 'C')
      from tickets t where t.id = p_ticket
    $fn$;
  `.execute(db);
}
