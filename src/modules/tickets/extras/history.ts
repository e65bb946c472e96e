import { sql } from 'kysely';
import type { Context } from '../../../core/context.ts';
import type { HistoryChange } from '../../../storage/schema.ts';
import { loadVisibleTicket } from '../load.ts';
import type { TicketHistory } from './schemas.ts';

/**
 * A ticket's history as recorded with each change (core/history.ts: the member, and the token's
 * name when an agent made it), oldest first. Entries of one request share its moment; they keep
 * the order they were written in.
 */
export async function readTicketHistory(ctx: Context, key: string): Promise<TicketHistory> {
  const ticket = await loadVisibleTicket(ctx, key);
  const { rows } = await sql<{
    at: string;
    kind: string;
    actor_id: string | null;
    actor_name: string | null;
    via: string | null;
    changes: HistoryChange[];
  }>`
    select h.at, h.kind, h.actor_id, m.display_name as actor_name, h.via, h.changes
    from history h left join members m on m.id = h.actor_id
    where h.entity_type = 'ticket' and h.entity_id = ${ticket.id}::uuid
    -- within one moment, the order written: history rows are never updated, so none moves in the heap
    order by h.at, h.ctid`.execute(ctx.db);
  return {
    key: ticket.key,
    entries: rows.map((row) => ({
      at: row.at,
      kind: row.kind,
      actor: row.actor_id && row.actor_name !== null ? { id: row.actor_id, name: row.actor_name } : null,
      via: row.via,
      changes: row.changes.map((change) => ({ field: change.field, from: change.from ?? null, to: change.to ?? null })),
    })),
  };
}
