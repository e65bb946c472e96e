import { sql, type RawBuilder } from 'kysely';
import { PREPARE } from './prepared.ts';

/**
 * A prepared page's LIMIT and OFFSET. The first page's LIMIT is written as a constant (every
 * list's schema holds it to an integer of 1–100) and it has no OFFSET: with either a parameter,
 * PostgreSQL plans for a tenth of the matches, so the prepared statement's generic plan looked
 * dearer than planning it anew and every request was planned again (0.55 of the ticket filter's
 * 1.5 ms; ADR 0035). A later page keeps both as parameters, so a connection holds one statement
 * per limit asked for, not one per page.
 */
export function pageWindow(limit: number, offset: number): RawBuilder<unknown> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a page's limit is a positive integer, not ${limit}`);
  return offset === 0 ? sql`limit ${sql.lit(limit)}` : sql`limit ${limit} offset ${offset}`;
}

/** A page asked of a list: its window, and whether the caller prepares it (a page of fixed shape, no words). */
export interface ListPage {
  limit: number;
  offset: number;
  prepared: boolean;
}

/**
 * A list statement's prepare marker and LIMIT/OFFSET: a prepared page's window as pageWindow writes
 * it; a page with words is planned for them each time, so its window stays parameters.
 */
export function listPageSql(page: ListPage): { marker: RawBuilder<unknown>; window: RawBuilder<unknown> } {
  if (!page.prepared) return { marker: sql``, window: sql`limit ${page.limit} offset ${page.offset}` };
  return { marker: sql.raw(PREPARE), window: pageWindow(page.limit, page.offset) };
}
