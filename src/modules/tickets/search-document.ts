import { sql, type RawBuilder } from 'kysely';

/**
 * The assignments of an `update tickets t` that bring the ticket's search document up to date
 * after a change, `added` being the comment the change made, if any. The comments' part of the
 * document is kept on the ticket (migration 0017) and grows by the new comment's own vector, so
 * the cost does not depend on how many comments the ticket already has. A ticket whose part is
 * not kept yet (NULL) gets it aggregated once, new comment included (it is already inserted).
 * Restricted comments stay out: search reads them apart, where the member may (spec 4.2).
 *
 * A comment changes only the comments' part, which ends the document: with the part kept, the
 * document is the one it had followed by the new words. tsvector concatenation is associative
 * (positions shift by the left side's last one, capped alike; a lexeme keeps its first 256
 * positions either way), so that is the document a rebuild writes, without reading the ticket's
 * labels and fields again: comments on one ticket queue on its row, and PostgreSQL computes the
 * new row again, under the lock, for each that waited (issue 15).
 */
export function searchDocumentSet(added: string | null): RawBuilder<unknown> {
  if (added === null) return sql`search_vector = ticket_search_document(t.id)`;
  const words = sql`coalesce((select setweight(c.search_vector, 'D') from comments c
                              where c.id = ${added}::uuid and c.visibility <> 'restricted'), ''::tsvector)`;
  return sql`comments_vector = coalesce(t.comments_vector || ${words}, ticket_comments_document(t.id)),
    search_vector = case when t.comments_vector is null then ticket_text_document(t.id) || ticket_comments_document(t.id)
                         else t.search_vector || ${words} end`;
}
