import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import type { StructureStore } from '../../core/structure-cache.ts';

/**
 * How common words are in tickets' search documents, as the database's own statistics say (the
 * most common lexemes of `tickets.search_vector` and the share of tickets holding each, which
 * ANALYZE gathers), so that search can tell a word found in a large part of the workspace from
 * the rest. Only a choice of plan rests on it: stale or missing statistics make a search slower,
 * never different.
 */
export interface WordFrequencies {
  /** The most common lexemes in JavaScript's order, for finding those a word begins. */
  readonly lexemes: readonly string[];
  /** The share of tickets holding each lexeme, in the same order. */
  readonly shares: readonly number[];
  /** How many tickets the statistics counted. */
  readonly tickets: number;
}

const NONE: WordFrequencies = { lexemes: [], shares: [], tickets: 0 };

/** Statistics change only when the table is analyzed (autovacuum, or an operator), so they are read again at most this often. */
const REFRESH_MS = 10 * 60_000;

/** A row of tickets is read in the time the search index yields about this many of its entries (measured; ADR 0039). */
const ROW_COST_IN_INDEX_ENTRIES = 5;

async function readFrequencies(ctx: Context): Promise<WordFrequencies> {
  // most_common_elems is an anyarray; its text form reads back as text[].
  const { rows } = await sql<{ elems: string[] | null; freqs: number[] | null; tickets: number }>`
    select s.most_common_elems::text::text[] as elems, s.most_common_elem_freqs as freqs, c.reltuples::float8 as tickets
    from pg_class c
    left join pg_stats s on s.schemaname = current_schema() and s.tablename = 'tickets' and s.attname = 'search_vector'
    where c.oid = 'tickets'::regclass`.execute(ctx.db);
  const row = rows[0];
  if (!row?.elems || !row.freqs || !(row.tickets > 0)) return NONE;
  const freqs = row.freqs;
  const pairs = row.elems.map((lexeme, i) => [lexeme, Number(freqs[i])] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { lexemes: pairs.map(([l]) => l), shares: pairs.map(([, s]) => s), tickets: row.tickets };
}

interface Held {
  readAt: number;
  frequencies: Promise<WordFrequencies>;
}

const held = new WeakMap<StructureStore, Held>();

/** This database's word frequencies, read at most every ten minutes (one store per app's database). */
export function wordFrequencies(ctx: Context): Promise<WordFrequencies> {
  const now = Date.now();
  const current = held.get(ctx.structure);
  if (current && now - current.readAt < REFRESH_MS) return current.frequencies;
  const frequencies = readFrequencies(ctx).catch(() => {
    held.delete(ctx.structure);
    return NONE;
  });
  held.set(ctx.structure, { readAt: now, frequencies });
  return frequencies;
}

/** The largest share among the common lexemes a word begins: at least that many tickets match `word:*`. */
function shareOf(frequencies: WordFrequencies, word: string): number {
  const { lexemes, shares } = frequencies;
  let low = 0;
  let high = lexemes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (lexemes[middle]! < word) low = middle + 1;
    else high = middle;
  }
  let share = 0;
  for (let i = low; i < lexemes.length && lexemes[i]!.startsWith(word); i += 1) share = Math.max(share, shares[i]!);
  return share;
}

/**
 * Whether every word of a query begins words so common that the first candidates are found
 * sooner by reading tickets and testing each than through the search index. The index hands
 * over every ticket holding each word before any is tested (its cost grows with each word's
 * share of the workspace); reading rows stops at the candidates wanted (its cost grows as the
 * words' joint share shrinks). PostgreSQL's planner prices the index's part far below what it
 * takes for a word in half the tickets: a project's search for one such word took 30 ms through
 * the index, and 0.5 ms through the project's own rows (ADR 0039).
 */
export function matchesAreCommon(frequencies: WordFrequencies, words: readonly string[], wanted: number): boolean {
  if (words.length === 0 || frequencies.tickets === 0) return false;
  let joint = 1;
  let indexEntries = 0;
  for (const word of words) {
    const share = shareOf(frequencies, word);
    if (share === 0) return false;
    joint *= share;
    indexEntries += share * frequencies.tickets;
  }
  return (wanted / joint) * ROW_COST_IN_INDEX_ENTRIES < indexEntries;
}
