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

/**
 * searchDocumentSet for a comment the same statement inserts, as `inserted` (a CTE returning the
 * comment's visibility and search_vector). The statement cannot see its own insert in `comments`,
 * so a part not kept yet is aggregated from the comments before it and followed by the new words:
 * the same document, as concatenation is associative.
 */
export function searchDocumentSetWith(inserted: RawBuilder<unknown>): RawBuilder<unknown> {
  const words = sql`coalesce((select setweight(n.search_vector, 'D') from ${inserted} n where n.visibility <> 'restricted'), ''::tsvector)`;
  return sql`comments_vector = coalesce(t.comments_vector, ticket_comments_document(t.id)) || ${words},
    search_vector = case when t.comments_vector is null then ticket_text_document(t.id) || ticket_comments_document(t.id) || ${words}
                         else t.search_vector || ${words} end`;
}
