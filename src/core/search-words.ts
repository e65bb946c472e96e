/** A query's words, lower-cased, at most 16 of them (each is searched as itself and as a beginning). */
export function searchWords(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 16);
}

/** Words and their beginnings (`word:*`) as a `to_tsquery` text, all of them required; null when there are none. */
export function prefixQueryOf(words: readonly string[]): string | null {
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/** A query's words and their beginnings as a `to_tsquery` text (prefixQueryOf); null when the query has no words. */
export function prefixQuery(query: string): string | null {
  return prefixQueryOf(searchWords(query));
}
