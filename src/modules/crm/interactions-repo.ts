import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import type { InteractionsTable } from './tables.ts';

/** An interaction as stored, its columns typed once, by the table. */
type StoredInteraction = Selectable<InteractionsTable>;

/** An interaction with the names it shows. */
export type InteractionRow = Omit<StoredInteraction, 'created_at'> & {
  author_name: string | null;
  contact_name: string | null;
  company_name: string | null;
  ticket_key: string | null;
  assignee_name: string | null;
};

const interactionColumns = sql`
  i.id, i.kind, i.subject, i.body_format, i.body_text, i.occurred_at, i.duration_seconds,
  i.author_id, au.display_name as author_name, i.contact_id, ct.name as contact_name,
  i.company_id, co.name as company_name, i.ticket_id, tk.key as ticket_key,
  i.due_at, i.assignee_id, asg.display_name as assignee_name, i.done_at, i.email`;

/** Joins for `interactionColumns`; `t` is the interaction's ticket, for visibility (tickets' visibleTicketSql). */
const interactionJoins = sql`
  left join members au on au.id = i.author_id
  left join contacts ct on ct.id = i.contact_id
  left join companies co on co.id = i.company_id
  left join tickets tk on tk.id = i.ticket_id
  left join members asg on asg.id = i.assignee_id`;

/** Interactions `where` (SQL over `i` and its ticket `tk`) allows, latest first, one page. */
export async function interactionPage(
  db: Kysely<DB>,
  where: RawBuilder<boolean>,
  limit: number,
  offset: number,
): Promise<InteractionRow[]> {
  const { rows } = await sql<InteractionRow>`
    select ${interactionColumns} from interactions i ${interactionJoins}
    where ${where}
    order by i.occurred_at desc, i.id desc
    limit ${limit} offset ${offset}
  `.execute(db);
  return rows;
}

/** Open follow-ups assigned to a member that `where` allows: soonest due first, those with no due moment last. */
export async function openFollowUps(db: Kysely<DB>, assigneeId: string, where: RawBuilder<boolean>): Promise<InteractionRow[]> {
  const { rows } = await sql<InteractionRow>`
    select ${interactionColumns} from interactions i ${interactionJoins}
    where i.kind = 'task' and i.done_at is null and i.assignee_id = ${assigneeId} and ${where}
    order by i.due_at asc nulls last, i.occurred_at, i.id
  `.execute(db);
  return rows;
}

export async function findInteraction(
  db: Kysely<DB>,
  id: string,
  where: RawBuilder<boolean>,
  forUpdate = false,
): Promise<InteractionRow | undefined> {
  const { rows } = await sql<InteractionRow>`
    select ${interactionColumns} from interactions i ${interactionJoins}
    where i.id = ${id} and ${where}
    ${forUpdate ? sql`for update of i` : sql``}
  `.execute(db);
  return rows[0];
}

/** What a new interaction is written with (the API's log and the workspace file's seeds): every column but the generated two. */
export type NewInteraction = Omit<StoredInteraction, 'id' | 'created_at'>;

export async function insertInteractionRow(db: Kysely<DB>, values: NewInteraction, now: Date): Promise<string> {
  const row = await db
    .insertInto('interactions')
    .values({ ...values, created_at: now.toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function markDone(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db.updateTable('interactions').set({ done_at: at.toISOString() }).where('id', '=', id).execute();
}
