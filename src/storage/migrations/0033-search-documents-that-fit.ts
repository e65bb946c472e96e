import { sql, type Kysely } from 'kysely';

// A search document (tsvector) holds at most 1 MB of words and positions; a text of a million
// characters in many distinct words holds more, and PostgreSQL refused the whole write. A text
// is now stored whole and its document holds as much of it as fits, from its beginning (within a
// quarter of what would fit); documents joined (a ticket's text part and its comments' part) hold
// the first whole and of the second the words it holds first, as many as fit. The documents of
// texts that fit are the ones they were.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- p_head followed by the words of p_text weighted p_weight, of as much of p_text as fits
    create function search_document_within(p_head tsvector, p_text text, p_weight "char") returns tsvector
    language plpgsql immutable parallel safe as $fn$
    declare
      v_length integer := length(p_text);
      v_text text := p_text;
      v_space integer;
    begin
      loop
        begin
          return p_head || setweight(to_tsvector('simple'::regconfig, search_words(v_text)), p_weight);
        exception when program_limit_exceeded then
          if v_length = 0 then
            return p_head;
          end if;
          -- a quarter less, cut at the last whitespace so no word is cut in two
          v_length := v_length * 3 / 4;
          v_text := left(p_text, v_length);
          v_space := strpos(reverse(translate(v_text, E'\\n\\r\\t', '   ')), ' ');
          if v_space > 0 then
            v_text := left(v_text, v_length - v_space);
          end if;
        end;
      end loop;
    end
    $fn$;

    -- p_first followed by the words of p_then that fit: those it holds first (positions are
    -- counted up to 16383, so the words beyond that come together, and last)
    create function search_documents_joined(p_first tsvector, p_then tsvector) returns tsvector
    language plpgsql immutable strict parallel safe as $fn$
    declare
      v_then tsvector := p_then;
      v_before integer := 16384;
    begin
      loop
        begin
          return p_first || v_then;
        exception when program_limit_exceeded then
          v_before := v_before * 3 / 4;
          v_then := ts_delete(p_then, array(
            select u.lexeme from unnest(p_then) u where coalesce(u.positions[1], 0) >= v_before));
        end;
      end loop;
    end
    $fn$;

    create or replace function ticket_text_document_of(
      p_key text, p_summary text, p_labels text[], p_description text, p_environment text, p_fields text[]
    ) returns tsvector language plpgsql stable as $fn$
    begin
      return search_document_within(
        setweight(to_tsvector('simple'::regconfig,
                              search_words(p_key || ' ' || replace(p_key, '-', ' ') || ' ' || p_summary)), 'A')
          || setweight(to_tsvector('simple'::regconfig, coalesce((
               select string_agg(l || ' ' || replace(l, '-', ' '), ' ' order by l) from unnest(p_labels) l), '')), 'B'),
        coalesce(p_description, '') || ' ' || coalesce(p_environment, '') || ' '
          || coalesce(array_to_string(p_fields, ' '), ''),
        'C');
    end
    $fn$;

    create or replace function ticket_text_document(p_ticket uuid) returns tsvector
    language plpgsql stable as $fn$
    begin
      return (select
          search_document_within(
            setweight(to_tsvector('simple'::regconfig,
                                  search_words(t.key || ' ' || replace(t.key, '-', ' ') || ' ' || t.summary)), 'A')
              || setweight(to_tsvector('simple'::regconfig, coalesce((
                   select string_agg(l.name || ' ' || replace(l.name, '-', ' '), ' ' order by l.name)
                   from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id), '')), 'B'),
            coalesce(t.description_text, '') || ' ' || coalesce(t.environment_text, '') || ' ' || coalesce((
              select string_agg(v.display, ' ' order by v.field_id)
              from ticket_field_values v where v.ticket_id = t.id), ''),
            'C')
        from tickets t where t.id = p_ticket);
    end
    $fn$;

    create or replace function ticket_comments_document(p_ticket uuid) returns tsvector
    language plpgsql stable as $fn$
    begin
      return search_document_within(''::tsvector, coalesce((
               select string_agg(c.body_text, ' ' order by c.created_at, c.id) from comments c
               where c.ticket_id = p_ticket and c.visibility <> 'restricted'), ''), 'D');
    end
    $fn$;

    create or replace function ticket_comments_document_without(p_ticket uuid, p_comments uuid[]) returns tsvector
    language plpgsql stable as $fn$
    begin
      return search_document_within(''::tsvector, coalesce((
               select string_agg(c.body_text, ' ' order by c.created_at, c.id) from comments c
               where c.ticket_id = p_ticket and c.id <> all(p_comments) and c.visibility <> 'restricted'), ''), 'D');
    end
    $fn$;

    create or replace function ticket_search_document(p_ticket uuid) returns tsvector
    language plpgsql stable as $fn$
    begin
      return (select search_documents_joined(ticket_text_document(t.id),
                                             coalesce(t.comments_vector, ticket_comments_document(t.id)))
        from tickets t where t.id = p_ticket);
    end
    $fn$;

    create or replace function ticket_commented(p_ticket uuid, p_comments uuid[], p_words tsvector[]) returns void
    language plpgsql volatile as $fn$
    declare
      v_words tsvector := '';
      v_each tsvector;
    begin
      for v_each in select u.words from unnest(p_comments, p_words) as u(id, words) order by u.id loop
        v_words := search_documents_joined(v_words, v_each);
      end loop;
      update tickets t set
        comments_vector = search_documents_joined(
                            coalesce(t.comments_vector, ticket_comments_document_without(t.id, p_comments)), v_words),
        search_vector = case when t.comments_vector is null
                             then search_documents_joined(
                                    search_documents_joined(ticket_text_document(t.id),
                                                            ticket_comments_document_without(t.id, p_comments)),
                                    v_words)
                             else search_documents_joined(t.search_vector, v_words) end,
        updated_at = now()
      where t.id = p_ticket;
    end
    $fn$;

    drop index comments_restricted_search_idx;
    alter table comments drop column search_vector;
    alter table comments add column search_vector tsvector
      generated always as (search_document_within(''::tsvector, coalesce(body_text, ''), 'D')) stored;
    create index comments_restricted_search_idx on comments using gin (search_vector) where visibility = 'restricted';

    drop index pages_search_idx;
    alter table pages drop column search_vector;
    alter table pages add column search_vector tsvector generated always as (
      search_document_within(
        setweight(to_tsvector('simple'::regconfig, search_words(title)), 'A'), coalesce(body_text, ''), 'B')
    ) stored;
    create index pages_search_idx on pages using gin (search_vector);
  `.execute(db);
}
