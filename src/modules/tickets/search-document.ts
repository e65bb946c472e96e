import { sql, type RawBuilder } from 'kysely';

/**
 * The assignments of an `update tickets t` that bring the ticket's search document up to date
 * after a change, `added` being the comment the change made, if any. The comments' part of the
 * document is kept on the ticket (migration 0017) and grows by the new comment's own vector, so
 * the cost does not depend on how many comments the ticket already has. A ticket whose part is
 * not kept yet (NULL) gets it aggregated once, new comment included (it is already inserted).
 * Restricted comments stay out: search reads them apart, where the member may (spec 4.2).
 */
export function searchDocumentSet(added: string | null): RawBuilder<unknown> {
  if (added === null) return sql`search_vector = ticket_search_document(t.id)`;
  const words = sql`coalesce((select setweight(c.search_vector, 'D') from comments c
                              where c.id = ${added}::uuid and c.visibility <> 'restricted'), ''::tsvector)`;
  const kept = sql`coalesce(t.comments_vector || ${words}, ticket_comments_document(t.id))`;
  return sql`comments_vector = ${kept}, search_vector = ticket_text_document(t.id) || ${kept}`;
}
