import type { Kysely, RawBuilder } from 'kysely';

/**
 * The total of a page whose rows carry it (counted by the page's own statement, so one round trip
 * answers both). A page past the end has no row to carry it: `count` is then asked alone.
 */
export async function pageTotal<DB>(
  db: Kysely<DB>,
  rows: readonly { total: number | string }[],
  offset: number,
  count: RawBuilder<{ total: number | string }>,
): Promise<number> {
  if (rows.length > 0) return Number(rows[0]!.total);
  if (offset === 0) return 0;
  return Number((await count.execute(db)).rows[0]?.total ?? 0);
}
