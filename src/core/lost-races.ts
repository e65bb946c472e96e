import { sql, type Kysely } from 'kysely';
import type { DB } from '../storage/schema.ts';

/**
 * A change that lost a race to another transaction: a unique or exclusion constraint another
 * change satisfied first (two timers started at once, two pages given one title), a serialization
 * failure or a deadlock. Its transaction was rolled back, so it ran as if never sent: made again
 * from the start, it sees the winner's row and answers what the same request answers without a
 * race (a new slug, the running timer stopped, 422 for a name now taken). Codes are PostgreSQL's.
 */
const LOST = new Set(['23505', '23P01', '40001', '40P01']);

/** How many times a change is made in all before a lost race is let through as the failure it is. */
export const RACE_ATTEMPTS = 5;

// the first key of the advisory locks that line up changes made again (the others: 7_245_001…014)
const RACE_LOCK = 7_245_020;

/** What a change lost a race on: the constraint, or the kind of failure; null for any other error. */
export function lostRace(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (typeof code !== 'string' || !LOST.has(code)) return null;
  return typeof constraint === 'string' ? constraint : code;
}

/**
 * Makes a change; one that lost a race is made again, whole, up to RACE_ATTEMPTS in all. Each
 * repeat runs in a transaction that first takes a lock named after what it lost on, so the
 * changes that lost on one constraint are made again one after another, each seeing the one
 * before it — not all at once, to collide again. `attempt` gets that lock's name (null the
 * first time) and runs the change, in a transaction of its own whenever the name is given.
 */
export async function makeAgainIfLost<T>(attempt: (lostOn: string | null) => Promise<T>): Promise<T> {
  let lostOn: string | null = null;
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt(lostOn);
    } catch (error) {
      lostOn = tries < RACE_ATTEMPTS ? lostRace(error) : null;
      if (lostOn === null) throw error;
    }
  }
}

/** Waits, in the transaction given, for the changes made again after losing on `lostOn` before it. */
export async function lineUpAfterLoss(trx: Kysely<DB>, lostOn: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${RACE_LOCK}, hashtext(${lostOn}))`.execute(trx);
}
