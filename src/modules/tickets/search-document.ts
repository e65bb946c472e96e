import { sql, type RawBuilder } from 'kysely';

/**
 * What a change does to the words of a ticket's search document: `text` says whether it changed
 * what the document's text part is built from (summary, description, environment, labels, custom
 * field values; not the status, assignee or times), `comment` names the comment it added, if any.
 */
export interface WordsChange {
  text: 'kept' | 'changed';
  comment?: string;
}

/**
 * The assignments of an `update tickets t` that bring the ticket's search document up to date
 * after a change, or null when the change leaves its words as they are. The comments' part of the
 * document is kept on the ticket (migration 0017) and grows by a new comment's own vector, so the
 * cost does not depend on how many comments the ticket already has. A ticket whose part is not
 * kept yet (NULL) gets it aggregated once, new comment included (it is already inserted).
 * Restricted comments stay out: search reads them apart, where the member may (spec 4.2).
 *
 * A comment alone changes only the comments' part, which ends the document: with the part kept,
 * the document is the one it had followed by the new words. tsvector concatenation is associative
 * (positions shift by the left side's last one, capped alike; a lexeme keeps its first 256
 * positions either way), so that is the document a rebuild writes, without reading the ticket's
 * labels and fields again: comments on one ticket queue on its row, and PostgreSQL computes the
 * new row again, under the lock, for each that waited (ADR 0038). A document holds at most 1 MB:
 * the parts are joined while they fit, a comment's words left out once they no longer do
 * (migration 0032).
 */
export function searchDocumentSet(change: WordsChange): RawBuilder<unknown> | null {
  const { text, comment } = change;
  if (comment === undefined) return text === 'kept' ? null : sql`search_vector = ticket_search_document(t.id)`;
  const words = sql`coalesce((select setweight(c.search_vector, 'D') from comments c
                              where c.id = ${comment}::uuid and c.visibility <> 'restricted'), ''::tsvector)`;
  const comments = sql`coalesce(search_documents_joined(t.comments_vector, ${words}), ticket_comments_document(t.id))`;
  const document =
    text === 'kept'
      ? sql`case when t.comments_vector is null
                 then search_documents_joined(ticket_text_document(t.id), ticket_comments_document(t.id))
                 else search_documents_joined(t.search_vector, ${words}) end`
      : sql`search_documents_joined(ticket_text_document(t.id), ${comments})`;
  return sql`comments_vector = ${comments}, search_vector = ${document}`;
}
