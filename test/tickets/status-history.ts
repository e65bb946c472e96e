import type { Kysely } from 'kysely';
import type { DB, HistoryChange } from '../../src/storage/schema.ts';

/** The status changes a ticket's transition entries recorded, in no particular order. */
export async function statusChanges(db: Kysely<DB>, key: string): Promise<{ from: string; to: string }[]> {
  const rows = await db
    .selectFrom('history as h')
    .innerJoin('tickets as t', 't.id', 'h.entity_id')
    .select('h.changes')
    .where('t.key', '=', key)
    .where('h.kind', '=', 'transitioned')
    .execute();
  return rows.map((row) => {
    const status = (row.changes as HistoryChange[]).find((change) => change.field === 'status')!;
    return { from: String(status.from), to: String(status.to) };
  });
}

/**
 * What keeps the changes from being one chain from `first` to `last`: for each status, the changes
 * that leave it less those that enter it, less one for `first` and plus one for `last`. One chain
 * leaves nothing ({}); a transition recorded from a status the ticket had already left counts
 * that status out once too often.
 */
export function chainImbalance(changes: { from: string; to: string }[], first: string, last: string): Record<string, number> {
  const balance: Record<string, number> = {};
  const add = (status: string, by: number) => {
    balance[status] = (balance[status] ?? 0) + by;
    if (balance[status] === 0) delete balance[status];
  };
  for (const change of changes) {
    add(change.from, 1);
    add(change.to, -1);
  }
  add(first, -1);
  add(last, 1);
  return balance;
}
