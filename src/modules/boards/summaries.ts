import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { summariesOf, summaryCellsJson, type SummaryCells, type TicketSummary } from '../tickets/index.ts';
import { MAX_TICKETS } from './ticket-sets.ts';

/** SQL: the columns of ticket `t` a card needs, for a list that carries them so its tickets are not read again by key. */
export const cardSourceColumns = sql`t.id, t.rank, t.key, t.summary, t.project_id, t.type_id, t.status_id, t.priority_id, t.assignee_id, t.updated_at, t.label_names`;

/** The cards of the first 500 tickets `t` (with status `s`) that meet `condition`, in rank order, in one query. */
export async function cardsWhere(ctx: Context, condition: RawBuilder<boolean>): Promise<TicketSummary[]> {
  const result = await sql<{ cards: SummaryCells[] }>`
    with shown as (
      select ${cardSourceColumns}
      from tickets t join statuses s on s.id = t.status_id
      where ${condition}
      order by t.rank nulls last, t.id
      limit ${MAX_TICKETS}
    )
    select coalesce((select json_agg(${summaryCellsJson} order by t.rank nulls last, t.id) from shown t), '[]') as cards
  `.execute(ctx.db);
  return summariesOf(ctx, result.rows[0]!.cards);
}
