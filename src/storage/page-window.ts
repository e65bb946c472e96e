import { sql, type RawBuilder } from 'kysely';

/**
 * A prepared page's LIMIT and OFFSET. The first page's LIMIT is written as a constant (every
 * list's schema holds it to an integer of 1–100) and it has no OFFSET: with either a parameter,
 * PostgreSQL plans for a tenth of the matches, so the prepared statement's generic plan looked
 * dearer than planning it anew and every request was planned again (0.55 of the ticket filter's
 * 1.5 ms, issue 15). A later page keeps both as parameters, so a connection holds one statement
 * per limit asked for, not one per page.
 */
export function pageWindow(limit: number, offset: number): RawBuilder<unknown> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a page's limit is a positive integer, not ${limit}`);
  return offset === 0 ? sql`limit ${sql.lit(limit)}` : sql`limit ${limit} offset ${offset}`;
}
