import { sql, type Kysely } from 'kysely';

// Comments on one ticket queue for its row, creates into one project for its counter. The
// statement that waited re-checks the row, and PostgreSQL then starts every subplan of that
// statement again (EvalPlanQual): the comment's or the ticket's inserts, their history and
// notifications, all re-initialized for each write that waited (ADR 0042). Each contended
// update is a PL/pgSQL function of its own here, so the wait and the re-check are those of its
// one small statement, whose plan the session keeps.
//
// The comment is inserted by the statement that calls this, and whether the function's query
// sees that row is not fixed, so a comments part not kept yet is aggregated from the others
// and followed by the new words: the document a rebuild writes, as concatenation is associative
// (src/modules/tickets/search-document.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ticket_comments_document_without(p_ticket uuid, p_comment uuid) returns tsvector
    language sql stable as $fn$
      select setweight(to_tsvector('simple'::regconfig, search_words(coalesce((
               select string_agg(c.body_text, ' ' order by c.created_at, c.id) from comments c
               where c.ticket_id = p_ticket and c.id <> p_comment and c.visibility <> 'restricted'), ''))), 'D')
    $fn$;

    -- p_words: the new comment's words as the document takes them (empty for a restricted one)
    create function ticket_commented(p_ticket uuid, p_comment uuid, p_words tsvector) returns void
    language plpgsql volatile as $fn$
    begin
      update tickets t set
        comments_vector = coalesce(t.comments_vector, ticket_comments_document_without(t.id, p_comment)) || p_words,
        search_vector = case when t.comments_vector is null
                             then ticket_text_document(t.id) || ticket_comments_document_without(t.id, p_comment) || p_words
                             else t.search_vector || p_words end,
        updated_at = now()
      where t.id = p_ticket;
    end
    $fn$;

    -- the project's next number and the key it makes; the counter row stays locked to the commit
    create function take_ticket_number(p_project uuid, out number integer, out key text)
    language plpgsql volatile as $fn$
    begin
      update projects p set next_ticket_number = p.next_ticket_number + 1 where p.id = p_project
      returning p.next_ticket_number - 1, p.key || '-' || (p.next_ticket_number - 1) into number, key;
    end
    $fn$;
  `.execute(db);
}
