import { sql, type Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import type { SummaryRow } from '../tickets/index.ts';

export interface CardRow extends SummaryRow {
  id: string;
}

/**
 * SQL: the TicketSummary columns of ticket `t` — what a card shows, and no more (the full
 * TicketRow costs five subqueries a ticket). Needs `cardJoins` after `t`.
 */
export const cardColumns = sql`
  t.id, t.key, t.summary, p.key as project_key, tt.name as type_name, s.name as status_name,
  s.category as status_category, pr.name as priority_name, t.assignee_id, a.display_name as assignee_name,
  coalesce((select array_agg(lb.name order by lb.name) from ticket_labels tl join labels lb on lb.id = tl.label_id
            where tl.ticket_id = t.id), '{}') as labels,
  t.updated_at`;

/** SQL: the same columns as one JSON object per card (timestamps as text, like every other read). */
export const cardJson = sql`json_build_object(
  'id', t.id, 'key', t.key, 'summary', t.summary, 'project_key', p.key, 'type_name', tt.name, 'status_name', s.name,
  'status_category', s.category, 'priority_name', pr.name, 'assignee_id', t.assignee_id, 'assignee_name', a.display_name,
  'labels', coalesce((select array_agg(lb.name order by lb.name) from ticket_labels tl join labels lb on lb.id = tl.label_id
                      where tl.ticket_id = t.id), '{}'),
  'updated_at', t.updated_at::text)`;

export const cardJoins = sql`
  join projects p on p.id = t.project_id
  join ticket_types tt on tt.id = t.type_id
  join statuses s on s.id = t.status_id
  left join priorities pr on pr.id = t.priority_id
  left join members a on a.id = t.assignee_id`;

/** The TicketSummary columns of up to 500 tickets in one query, in the order of `ids`. */
export async function cardRows(db: Kysely<DB>, ids: readonly string[]): Promise<CardRow[]> {
  if (ids.length === 0) return [];
  const result = await sql<CardRow>`
    select ${cardColumns}
    from unnest(${[...ids]}::uuid[]) with ordinality as wanted(id, ord)
    join tickets t on t.id = wanted.id
    ${cardJoins}
    order by wanted.ord
  `.execute(db);
  return result.rows;
}
