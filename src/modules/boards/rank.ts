import { generateKeyBetween } from 'fractional-indexing';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/**
 * Board and backlog order is one global rank per ticket (a fractional-indexing key, compared
 * byte by byte): a move writes one key between its neighbours and never renumbers anyone else.
 */

// Any fixed number: two moves never compute a key from the same neighbours at once.
const RANK_LOCK = 7_245_004;

export async function lockRanks(db: Kysely<DB>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${RANK_LOCK})`.execute(db);
}

/** A ticket of the target list the card is placed beside, as the request named it. */
export interface Neighbour {
  /** Its key, normalized. */
  key: string;
  /** Where the request named it: `/before` or `/after`. */
  pointer: string;
}

/** Where the card goes in its target list: before or after a ticket of it, or at its end. */
export type Place = { before: Neighbour } | { after: Neighbour } | 'end';

/** The ticket the card is placed beside, if any. */
export const besideOf = (place: Place): Neighbour | null => (place === 'end' ? null : 'after' in place ? place.after : place.before);

/**
 * The rank that places a card in a list of tickets (`inList`: a condition on `t`), or null when
 * the ticket it goes beside is not another ticket of the list. The key goes after its lower
 * neighbour and before the next rank anywhere, so no two tickets ever share one and the card
 * lands in the same place in every view. The neighbours' ranks are read by this one statement,
 * under the caller's rank lock: a rank read before the lock may have moved since.
 */
export async function rankInList(db: Kysely<DB>, inList: RawBuilder<boolean>, cardId: string, place: Place): Promise<string | null> {
  const others = sql<boolean>`t.id <> ${cardId}::uuid`;
  const beside = besideOf(place);
  // The neighbour's rank, read once (`n`), where the move needs it twice: for the lower bound and
  // to tell whether the neighbour is still in the list.
  const besideRank = sql`(select rank from n)`;
  // The highest rank as ORDER BY … LIMIT 1, not max(): the list's conditions join other tables,
  // and PostgreSQL reads max() off an index only for a query on one table. This way an ordered walk
  // down a rank index that stops at the first match is among the plans it weighs.
  const highest = (condition: RawBuilder<boolean>) =>
    sql`(select t.rank from tickets t where ${condition} and t.rank is not null order by t.rank desc limit 1)`;
  const lower =
    place === 'end'
      ? sql`coalesce(${highest(sql`${inList} and ${others}`)}, ${highest(others)})`
      : 'after' in place
        ? besideRank
        : highest(sql`${inList} and ${others} and t.rank < ${besideRank}`);
  // every rank is a non-empty key, and ranks compare byte by byte (collate "C"): all are above ''.
  // Materialized: each value is used twice, and inlined it would be computed twice.
  const { rows } = await sql<{ lower: string | null; upper: string | null; beside_in_list: boolean }>`
    with n as materialized (
      select ${beside ? sql`(select t.rank from tickets t where t.key = ${beside.key} and ${others} and ${inList})` : sql`null::text`} as rank
    ),
    l as materialized (select ${lower} as value)
    select l.value as lower, (select min(t.rank) from tickets t where ${others} and t.rank > coalesce(l.value, '')) as upper,
           ${beside ? sql`${besideRank} is not null` : sql`true`} as beside_in_list
    from l
  `.execute(db);
  const [neighbours] = rows;
  if (!neighbours!.beside_in_list) return null;
  return generateKeyBetween(neighbours!.lower, neighbours!.upper);
}
