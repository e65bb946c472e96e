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

/** Where the card goes in its target list: before or after a ticket of it, or at its end. */
export type Place = { before: string } | { after: string } | 'end';

/**
 * The rank that places a card in a list of tickets (`inList`: a condition on `t`). The key goes
 * after its lower neighbour and before the next rank anywhere, so no two tickets ever share one
 * and the card lands in the same place in every view. Both neighbours are read by one statement.
 */
export async function rankInList(db: Kysely<DB>, inList: RawBuilder<boolean>, cardId: string, place: Place): Promise<string> {
  const others = sql`t.id <> ${cardId}::uuid`;
  const lower =
    place === 'end'
      ? sql`coalesce((select max(t.rank) from tickets t where ${inList} and ${others}), (select max(t.rank) from tickets t where ${others}))`
      : 'after' in place
        ? sql`${place.after}::text`
        : sql`(select max(t.rank) from tickets t where ${inList} and ${others} and t.rank < ${place.before})`;
  // every rank is a non-empty key, and ranks compare byte by byte (collate "C"): all are above ''
  const { rows } = await sql<{ lower: string | null; upper: string | null }>`
    with l as (select ${lower} as value)
    select l.value as lower, (select min(t.rank) from tickets t where ${others} and t.rank > coalesce(l.value, '')) as upper from l
  `.execute(db);
  const [neighbours] = rows;
  return generateKeyBetween(neighbours!.lower, neighbours!.upper);
}
