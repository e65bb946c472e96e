import { sql, type Kysely } from 'kysely';

// Comments on one ticket that wait for its row are written together, one statement for all of
// them (core/row-queue.ts, RowQueue.join; ADR 0042): the ticket's update (migration 0025) takes
// the words of every comment of the statement, so the comments part it aggregates, when it is not
// kept yet, leaves them all out. A single comment is a statement of one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop function ticket_commented(uuid, uuid, tsvector);
    drop function ticket_comments_document_without(uuid, uuid);

    create function ticket_comments_document_without(p_ticket uuid, p_comments uuid[]) returns tsvector
    language sql stable as $fn$
      select setweight(to_tsvector('simple'::regconfig, search_words(coalesce((
               select string_agg(c.body_text, ' ' order by c.created_at, c.id) from comments c
               where c.ticket_id = p_ticket and c.id <> all(p_comments) and c.visibility <> 'restricted'), ''))), 'D')
    $fn$;

    -- p_words: the words of each of p_comments as the document takes them (empty for a restricted
    -- one). Comments written together share their time, so a rebuild reads them by id: the words
    -- go in that order, whatever order the statement lists them in.
    create function ticket_commented(p_ticket uuid, p_comments uuid[], p_words tsvector[]) returns void
    language plpgsql volatile as $fn$
    declare
      v_words tsvector := '';
      v_each tsvector;
    begin
      for v_each in select u.words from unnest(p_comments, p_words) as u(id, words) order by u.id loop
        v_words := v_words || v_each;
      end loop;
      update tickets t set
        comments_vector = coalesce(t.comments_vector, ticket_comments_document_without(t.id, p_comments)) || v_words,
        search_vector = case when t.comments_vector is null
                             then ticket_text_document(t.id) || ticket_comments_document_without(t.id, p_comments) || v_words
                             else t.search_vector || v_words end,
        updated_at = now()
      where t.id = p_ticket;
    end
    $fn$;
  `.execute(db);
}
