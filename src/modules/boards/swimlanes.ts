import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { ticketScope, visibleTicketSql } from '../tickets/index.ts';
import { loadVisibleBoard } from './policy.ts';
import type { QuickFilter, Swimlanes } from './tables.ts';

/** What the board's page needs to group its cards into swimlanes (how, and for `parent` each card's parent) and to offer its quick filters. */
export interface SwimlaneSource {
  by: Swimlanes;
  /** By card key: its parent's key, when the member can see the parent. */
  parents: ReadonlyMap<string, string>;
  /** The workspace's priorities, highest first: the order of priority lanes. */
  priorities: readonly string[];
  /** The quick filters the board offers, in order. */
  quickFilters: readonly QuickFilter[];
}

export async function swimlaneSource(ctx: Context, number: number, keys: readonly string[]): Promise<SwimlaneSource> {
  const board = await loadVisibleBoard(ctx, number);
  const parents = new Map<string, string>();
  let priorities: string[] = [];
  if (board.swimlanes === 'parent' && keys.length > 0) {
    const rows = await sql<{ key: string; parent: string }>`
      select t.key, p.key as parent from tickets t join tickets p on p.id = t.parent_id
      where t.key = any(${[...keys]}::text[]) and ${visibleTicketSql(await ticketScope(ctx), 'p')}
    `.execute(ctx.db);
    for (const row of rows.rows) parents.set(row.key, row.parent);
  }
  if (board.swimlanes === 'priority') {
    const rows = await sql<{ name: string }>`select name from priorities group by name order by min(position), name`.execute(ctx.db);
    priorities = rows.rows.map((r) => r.name);
  }
  return { by: board.swimlanes, parents, priorities, quickFilters: board.quick_filters };
}
