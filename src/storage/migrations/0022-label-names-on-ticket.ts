import { sql, type Kysely } from 'kysely';

// Every list shows each ticket's labels: a search page, a filter, a 500-card board. Reading them
// from ticket_labels joined to labels cost a board 1.2 ms of its 6.5 ms statement (PostgreSQL
// descends the index once per card, labels or not) and a search page about a third of its
// execution (ADR 0037). Labels are never renamed, so a ticket keeps their names, in name order,
// on its row; ticket_labels stays the link that filters by label and keeps the references.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tickets add column label_names text[] not null default '{}';
    update tickets t set label_names = x.names
    from (
      select tl.ticket_id, array_agg(l.name order by l.name) as names
      from ticket_labels tl join labels l on l.id = tl.label_id group by tl.ticket_id
    ) x
    where x.ticket_id = t.id;
  `.execute(db);
}
