import { sql, type Kysely } from 'kysely';

// Words inside HTML-like text are words (ADR 0026): PostgreSQL's text parser reads `<script>…</script>`
// as a tag and drops what is between, so `alert` in `<script>alert(1)</script>` was never found.
// Every search document now reads its text through search_words, which turns angle brackets into
// spaces first.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function search_words(body text) returns text
    language sql immutable parallel safe as $fn$ select translate(body, '<>', '  ') $fn$;

    create or replace function ticket_search_document(p_ticket uuid) returns tsvector
    language sql stable as $fn$
      select
        setweight(to_tsvector('simple'::regconfig, search_words(t.key || ' ' || replace(t.key, '-', ' ') || ' ' || t.summary)), 'A')
        || setweight(to_tsvector('simple'::regconfig, coalesce((
             select string_agg(l.name || ' ' || replace(l.name, '-', ' '), ' ')
             from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id), '')), 'B')
        || setweight(to_tsvector('simple'::regconfig, search_words(
             coalesce(t.description_text, '') || ' ' || coalesce(t.environment_text, '') || ' ' || coalesce((
             select string_agg(v.display, ' ') from ticket_field_values v where v.ticket_id = t.id), ''))), 'C')
        || setweight(to_tsvector('simple'::regconfig, search_words(coalesce((
             select string_agg(c.body_text, ' ') from comments c
             where c.ticket_id = t.id and c.visibility <> 'restricted'), ''))), 'D')
      from tickets t where t.id = p_ticket
    $fn$;

    alter table comments drop column search_vector;
    alter table comments add column search_vector tsvector
      generated always as (to_tsvector('simple'::regconfig, search_words(body_text))) stored;
    create index comments_restricted_search_idx on comments using gin (search_vector) where visibility = 'restricted';

    update tickets set search_vector = ticket_search_document(id);
  `.execute(db);
}
