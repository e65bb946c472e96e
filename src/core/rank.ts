import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

/**
 * Sortable rank strings (fractional indexing, compared byte by byte) for lists people reorder:
 * a reorder rewrites the fewest keys it can and never renumbers the whole list.
 */

export interface Ranked {
  id: string;
  rank: string;
}

/** The key after every rank given: where a new item goes at the end of its list. */
export function rankAfter(ranks: readonly string[]): string {
  const top = ranks.reduce<string | null>((max, rank) => (max === null || rank > max ? rank : max), null);
  return generateKeyBetween(top, null);
}

/** A key between two neighbours (null: the list's start or end): where an item moved between them goes. */
export function rankBetween(lower: string | null, upper: string | null): string {
  return generateKeyBetween(lower, upper);
}

/** Indexes of a longest strictly increasing run of ranks, in order: the items that may keep their keys. */
function keptIndexes(ranks: readonly string[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array(ranks.length).fill(-1);
  ranks.forEach((rank, i) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (ranks[tails[mid]!]! < rank) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[i] = tails[low - 1]!;
    tails[low] = i;
  });
  const kept = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) kept.add(i);
  return kept;
}

/**
 * New keys that put `items` in the order given: the longest run already in order keeps its keys,
 * the others get keys between their kept neighbours. Returns only the keys that change.
 */
export function rerank(items: readonly Ranked[]): Map<string, string> {
  const kept = keptIndexes(items.map((item) => item.rank));
  const changed = new Map<string, string>();
  let i = 0;
  while (i < items.length) {
    if (kept.has(i)) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < items.length && !kept.has(end)) end += 1;
    const lower = i > 0 ? items[i - 1]!.rank : null;
    const upper = end < items.length ? items[end]!.rank : null;
    const keys = generateNKeysBetween(lower, upper, end - i);
    for (let k = i; k < end; k += 1) changed.set(items[k]!.id, keys[k - i]!);
    i = end;
  }
  return changed;
}
