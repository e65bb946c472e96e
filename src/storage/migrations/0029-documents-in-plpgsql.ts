import { sql, type Kysely } from 'kysely';

// The search documents were SQL functions whose bodies hold a subquery, which PostgreSQL cannot
// inline: an SQL function that is not inlined has its body planned again at every call, and one
// calling another plans both. Measured with pgbench on one connection (ADR 0038): a new ticket's
// document 0.21 ms a call, a rebuild (PATCH, a transition) 0.77 ms. In PL/pgSQL, which keeps each
// statement's plan for the session, the same bodies cost 0.06 ms and 0.14 ms. The bodies do not
// change, so every document is the one it was (compared over every ticket of a bench data set).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function ticket_text_document_of(p_key text, p_summary text, p_labels text[], p_description text, p_environment text, p_fields text[])
    returns tsvector language plpgsql stable as $fn$
    begin
      return setweight(to_tsvector('simple'::regconfig, search_words(p_key || ' ' || replace(p_key, '-', ' ') || ' ' || p_summary)), 'A')
        || setweight(to_tsvector('simple'::regconfig, coalesce((
             select string_agg(l || ' ' || replace(l, '-', ' '), ' ' order by l) from unnest(p_labels) l), '')), 'B')
        || setweight(to_tsvector('simple'::regconfig, search_words(
             coalesce(p_description, '') || ' ' || coalesce(p_environment, '') || ' ' || coalesce(array_to_string(p_fields, ' '), ''))), 'C');
    end
    $fn$;

    create or replace function ticket_text_document(p_ticket uuid) returns tsvector
    language plpgsql stable as $fn$
    begin
      return (select
          setweight(to_tsvector('simple'::regconfig, search_words(t.key || ' ' || replace(t.key, '-', ' ') || ' ' || t.summary)), 'A')
          || setweight(to_tsvector('simple'::regconfig, coalesce((
               select string_agg(l.name || ' ' || replace(l.name, '-', ' '), ' ' order by l.name)
               from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id), '')), 'B')
          || setweight(to_tsvector('simple'::regconfig, search_words(
               coalesce(t.description_text, '') || ' ' || coalesce(t.environment_text, '') || ' ' || coalesce((
               select string_agg(v.display, ' ' order by v.field_id) from ticket_field_values v where v.ticket_id = t.id), ''))), 'C')
        from tickets t where t.id = p_ticket);
    end
    $fn$;

    create or replace function ticket_comments_document(p_ticket uuid) returns tsvector
    language plpgsql stable as $fn$
    begin
      return setweight(to_tsvector('simple'::regconfig, search_words(coalesce((
               select string_agg(c.body_text, ' ' order by c.created_at, c.id) from comments c
               where c.ticket_id = p_ticket and c.visibility <> 'restricted'), ''))), 'D');
    end
    $fn$;

    create or replace function ticket_comments_document_without(p_ticket uuid, p_comments uuid[]) returns tsvector
    language plpgsql stable as $fn$
    begin
      return setweight(to_tsvector('simple'::regconfig, search_words(coalesce((
               select string_agg(c.body_text, ' ' order by c.created_at, c.id) from comments c
               where c.ticket_id = p_ticket and c.id <> all(p_comments) and c.visibility <> 'restricted'), ''))), 'D');
    end
    $fn$;

    create or replace function ticket_search_document(p_ticket uuid) returns tsvector
    language plpgsql stable as $fn$
    begin
      return (select ticket_text_document(t.id) || coalesce(t.comments_vector, ticket_comments_document(t.id))
        from tickets t where t.id = p_ticket);
    end
    $fn$;

    create or replace function contact_search_document(p_contact uuid) returns tsvector
    language plpgsql stable as $fn$
    begin
      return (select to_tsvector('simple'::regconfig, crm_words(c.name || ' ' || coalesce(c.job_title, '') || ' ' || coalesce((
          select string_agg(e.address, ' ') from contact_emails e where e.contact_id = c.id), '')))
        from contacts c where c.id = p_contact);
    end
    $fn$;
  `.execute(db);
}
