import { sql, type RawBuilder } from 'kysely';
import { summaryCellsJson, type SummaryCells } from '../tickets/index.ts';
import { MAX_TICKETS } from './ticket-sets.ts';

/** SQL: the columns of ticket `t` a card needs, for a list that carries them so its tickets are not read again by key. */
export const cardSourceColumns = sql`t.id, t.rank, t.key, t.summary, t.project_id, t.type_id, t.status_id, t.priority_id, t.assignee_id, t.updated_at, t.label_names`;

/**
 * SQL: one JSON array of the cells of the first 500 tickets `t` (with status `s`) that meet
 * `condition`, in rank order — a scalar, so several lists can share one statement.
 */
export function cardsJson(condition: RawBuilder<boolean>): RawBuilder<SummaryCells[]> {
  return sql<SummaryCells[]>`coalesce((
    select json_agg(${summaryCellsJson} order by t.rank nulls last, t.id)
    from (
      select ${cardSourceColumns}
      from tickets t join statuses s on s.id = t.status_id
      where ${condition}
      order by t.rank nulls last, t.id
      limit ${MAX_TICKETS}
    ) t), '[]')`;
}
