import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { summariesOf, summaryAssigneeJoin, summaryCellsJson, type SummaryCells, type TicketSummary } from '../tickets/index.ts';
import { MAX_TICKETS } from './ticket-sets.ts';

/**
 * SQL: the labels of the cards in `cards` (a from-item with their ticket ids as `id`) as one JSON
 * object by ticket id. The cards' ids go to ticket_labels' key as one array, so its index is
 * searched once for all of them; a join here let the planner hash every card's labels against
 * all labels (10 ms on a full board) or all 68,000 label rows of the workspace at once (28 ms),
 * and a correlated lookup per card paid the executor's per-row cost 500 times (issue 15: the
 * board's statement 10-15 % faster this way, measured with pgbench).
 */
export const cardLabelsJson = (cards: RawBuilder<unknown>) => sql<Record<string, string[]>>`(
  select coalesce(json_object_agg(x.ticket_id, x.names), '{}')
  from (
    select tl.ticket_id, array_agg(lb.name order by lb.name) as names
    from ticket_labels tl join labels lb on lb.id = tl.label_id
    where tl.ticket_id = any(array(select c.id from ${cards}))
    group by tl.ticket_id
  ) x)`;

/** SQL: the columns of ticket `t` a card needs, for a list that carries them so its tickets are not read again by key. */
export const cardSourceColumns = sql`t.id, t.rank, t.key, t.summary, t.project_id, t.type_id, t.status_id, t.priority_id, t.assignee_id, t.updated_at`;

/** The cards of the first 500 tickets `t` (with status `s`) that meet `condition`, in rank order, in one query. */
export async function cardsWhere(ctx: Context, condition: RawBuilder<boolean>): Promise<TicketSummary[]> {
  const result = await sql<{ cards: SummaryCells[]; labels: Record<string, string[]> }>`
    with shown as (
      select ${cardSourceColumns}
      from tickets t join statuses s on s.id = t.status_id
      where ${condition}
      order by t.rank nulls last, t.id
      limit ${MAX_TICKETS}
    )
    select coalesce((select json_agg(${summaryCellsJson} order by t.rank nulls last, t.id) from shown t ${summaryAssigneeJoin}), '[]') as cards,
           ${cardLabelsJson(sql`shown c`)} as labels
  `.execute(ctx.db);
  const { cards, labels } = result.rows[0]!;
  return summariesOf(ctx, cards, (id) => labels[id] ?? []);
}
