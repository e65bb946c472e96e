/** Words and their beginnings (`word:*`) as a `to_tsquery` text, all of them required; null when the query has no words. */
export function prefixQuery(query: string): string | null {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length ? words.slice(0, 16).map((w) => `${w}:*`).join(' & ') : null;
}
