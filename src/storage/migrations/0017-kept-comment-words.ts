import { sql, type Kysely } from 'kysely';

// A ticket's search document aggregated every comment on the ticket each time it was rebuilt, so a
// comment on a ticket with thousands cost thousands (ADR 0038). The comments' part of the document
// is now kept on the ticket (comments_vector) and grows by each new comment's words, which the
// comment's own generated search_vector already holds; rebuilding the document reads the kept
// part instead of the comments. NULL means "not kept yet": the next rebuild aggregates the
// comments once (existing tickets need no backfill here), and a writer that changes or removes a
// comment's text sets it back to NULL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tickets add column comments_vector tsvector;

    -- key and summary weigh most, then labels, then the texts and custom fields
    create function ticket_text_document(p_ticket uuid) returns tsvector
    language sql stable as $fn$
      select
        setweight(to_tsvector('simple'::regconfig, search_words(t.key || ' ' || replace(t.key, '-', ' ') || ' ' || t.summary)), 'A')
        || setweight(to_tsvector('simple'::regconfig, coalesce((
             select string_agg(l.name || ' ' || replace(l.name, '-', ' '), ' ')
             from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id), '')), 'B')
        || setweight(to_tsvector('simple'::regconfig, search_words(
             coalesce(t.description_text, '') || ' ' || coalesce(t.environment_text, '') || ' ' || coalesce((
             select string_agg(v.display, ' ') from ticket_field_values v where v.ticket_id = t.id), ''))), 'C')
      from tickets t where t.id = p_ticket
    $fn$;

    -- every comment each member of the project may read (restricted ones are searched apart), in
    -- the order they were made: what comments_vector keeps, aggregated from scratch
    create function ticket_comments_document(p_ticket uuid) returns tsvector
    language sql stable as $fn$
      select setweight(to_tsvector('simple'::regconfig, search_words(coalesce((
               select string_agg(c.body_text, ' ' order by c.created_at, c.id) from comments c
               where c.ticket_id = p_ticket and c.visibility <> 'restricted'), ''))), 'D')
    $fn$;

    create or replace function ticket_search_document(p_ticket uuid) returns tsvector
    language sql stable as $fn$
      select ticket_text_document(t.id) || coalesce(t.comments_vector, ticket_comments_document(t.id))
      from tickets t where t.id = p_ticket
    $fn$;
  `.execute(db);
}
