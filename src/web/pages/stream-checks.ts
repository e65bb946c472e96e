import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

type Waiting = { resolve(count: number): void; reject(error: unknown): void };

/**
 * Members' unread notification counts, asked for by every open event stream at each change and
 * read in one query per round: the asks made while an event is being dispatched are gathered
 * until the next turn of the event loop (setImmediate runs after the dispatch's microtasks), so
 * a change seen by 1,000 open pages costs one grouped count, not 1,000 (issue 17's benchmark).
 */
export function batchedUnreadCounts(db: Kysely<DB>): (memberId: string) => Promise<number> {
  let round: Map<string, Waiting[]> | null = null;

  const read = async (asks: Map<string, Waiting[]>) => {
    try {
      const rows = await db
        .selectFrom('notifications')
        .select((eb) => ['member_id', eb.fn.countAll<string | number>().as('n')])
        .where('member_id', 'in', [...asks.keys()])
        .where('read_at', 'is', null)
        .groupBy('member_id')
        .execute();
      const counts = new Map(rows.map((row) => [row.member_id, Number(row.n)]));
      for (const [memberId, waiting] of asks) for (const w of waiting) w.resolve(counts.get(memberId) ?? 0);
    } catch (error) {
      for (const waiting of asks.values()) for (const w of waiting) w.reject(error);
    }
  };

  return (memberId) =>
    new Promise<number>((resolve, reject) => {
      if (round === null) {
        const asks = new Map<string, Waiting[]>();
        round = asks;
        setImmediate(() => {
          round = null;
          void read(asks);
        });
      }
      const waiting = round.get(memberId);
      if (waiting) waiting.push({ resolve, reject });
      else round.set(memberId, [{ resolve, reject }]);
    });
}
