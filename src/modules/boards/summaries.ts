import { sql, type Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import type { SummaryRow } from '../tickets/present.ts';

export interface CardRow extends SummaryRow {
  id: string;
}

/**
 * The TicketSummary columns of up to 500 tickets in one query, in the order of `ids`: a board
 * view reads only what a card shows (the full TicketRow costs five subqueries a ticket).
 */
export async function cardRows(db: Kysely<DB>, ids: readonly string[]): Promise<CardRow[]> {
  if (ids.length === 0) return [];
  const result = await sql<CardRow>`
    select t.id, t.key, t.summary, p.key as project_key, tt.name as type_name, s.name as status_name,
           s.category as status_category, pr.name as priority_name, t.assignee_id, a.display_name as assignee_name,
           coalesce(l.labels, '{}') as labels, t.updated_at
    from unnest(${[...ids]}::uuid[]) with ordinality as wanted(id, ord)
    join tickets t on t.id = wanted.id
    join projects p on p.id = t.project_id
    join ticket_types tt on tt.id = t.type_id
    join statuses s on s.id = t.status_id
    left join priorities pr on pr.id = t.priority_id
    left join members a on a.id = t.assignee_id
    left join (
      select tl.ticket_id, array_agg(lb.name order by lb.name) as labels
      from ticket_labels tl join labels lb on lb.id = tl.label_id
      where tl.ticket_id = any(${[...ids]}::uuid[])
      group by tl.ticket_id
    ) l on l.ticket_id = t.id
    order by wanted.ord
  `.execute(db);
  return result.rows;
}
