import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import type { SummaryRow } from '../tickets/index.ts';

export interface CardRow extends SummaryRow {
  id: string;
}

/** SQL: what a card shows of ticket `t` but its labels, as one JSON object (timestamps as text, like every other read). Needs `cardJoins` after `t`. */
export const cardJson = sql`json_build_object(
  'id', t.id, 'key', t.key, 'summary', t.summary, 'project_key', p.key, 'type_name', tt.name, 'status_name', s.name,
  'status_category', s.category, 'priority_name', pr.name, 'assignee_id', t.assignee_id, 'assignee_name', a.display_name,
  'updated_at', t.updated_at::text)`;

export const cardJoins = sql`
  join projects p on p.id = t.project_id
  join ticket_types tt on tt.id = t.type_id
  join statuses s on s.id = t.status_id
  left join priorities pr on pr.id = t.priority_id
  left join members a on a.id = t.assignee_id`;

/**
 * SQL: the labels of the cards in `cards` (a from-item with their ticket ids as `id`) as one JSON
 * object by ticket id, read in one pass: a lookup per card cost about 10 ms on a full board.
 */
export const cardLabelsJson = (cards: RawBuilder<unknown>) => sql<Record<string, string[]>>`(
  select coalesce(json_object_agg(g.id, g.names), '{}')
  from (select c.id, array_agg(lb.name order by lb.name) as names
        from ${cards} join ticket_labels tl on tl.ticket_id = c.id join labels lb on lb.id = tl.label_id
        group by c.id) g)`;

/** Cards as `cardJson` and `cardLabelsJson` read them, put together. */
export function withLabels(cards: readonly Omit<CardRow, 'labels'>[], labels: Readonly<Record<string, string[]>>): CardRow[] {
  return cards.map((card) => ({ ...card, labels: labels[card.id] ?? [] }));
}

/** The TicketSummary columns of up to 500 tickets in one query, in the order of `ids`. */
export async function cardRows(db: Kysely<DB>, ids: readonly string[]): Promise<CardRow[]> {
  if (ids.length === 0) return [];
  const result = await sql<{ cards: Omit<CardRow, 'labels'>[]; labels: Record<string, string[]> }>`
    select coalesce((select json_agg(${cardJson} order by c.ord)
                     from unnest(${[...ids]}::uuid[]) with ordinality as c(id, ord)
                     join tickets t on t.id = c.id
                     ${cardJoins}), '[]') as cards,
           ${cardLabelsJson(sql`unnest(${[...ids]}::uuid[]) as c(id)`)} as labels
  `.execute(db);
  const { cards, labels } = result.rows[0]!;
  return withLabels(cards, labels);
}
