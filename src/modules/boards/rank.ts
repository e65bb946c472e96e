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

async function scalar(db: Kysely<DB>, query: RawBuilder<{ value: string | null }>): Promise<string | null> {
  const result = await query.execute(db);
  return result.rows[0]?.value ?? null;
}

/**
 * The rank that places a card in a list of tickets (`inList`: a condition on `t`). The key goes
 * after its lower neighbour and before the next rank anywhere, so no two tickets ever share one
 * and the card lands in the same place in every view.
 */
export async function rankInList(db: Kysely<DB>, inList: RawBuilder<boolean>, cardId: string, place: Place): Promise<string> {
  let lower: string | null;
  if (place === 'end') {
    lower =
      (await scalar(db, sql`select max(t.rank) as value from tickets t where ${inList} and t.id <> ${cardId}`)) ??
      (await scalar(db, sql`select max(t.rank) as value from tickets t where t.id <> ${cardId}`));
  } else if ('after' in place) {
    lower = place.after;
  } else {
    lower = await scalar(db, sql`select max(t.rank) as value from tickets t where ${inList} and t.id <> ${cardId} and t.rank < ${place.before}`);
  }
  const upper =
    lower === null
      ? await scalar(db, sql`select min(t.rank) as value from tickets t where t.id <> ${cardId}`)
      : await scalar(db, sql`select min(t.rank) as value from tickets t where t.id <> ${cardId} and t.rank > ${lower}`);
  return generateKeyBetween(lower, upper);
}
