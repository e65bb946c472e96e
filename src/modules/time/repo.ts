import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/** An activity as presented: its row with the names it links to, and whether a closed phase locks it. */
export interface ActivityRow {
  id: string;
  member_id: string;
  author_name: string;
  description: string | null;
  started_at: string;
  ended_at: string | null;
  tags: string[];
  project_id: string | null;
  project_key: string | null;
  project_name: string | null;
  customer_id: string | null;
  customer_name: string | null;
  ticket_id: string | null;
  ticket_key: string | null;
  ticket_summary: string | null;
  note: string | null;
  billable: boolean;
  locked: boolean;
  created_at: string;
  edited_at: string | null;
}

type From = SelectQueryBuilder<DB & { a: DB['activities'] }, 'a', object>;

/** SQL: a closed billing phase covers the activity's day and its project (or, for a phase of no project, its customer). */
export function lockedSql(eb: ExpressionBuilder<DB & { a: DB['activities'] }, 'a'>) {
  return eb.exists(
    eb
      .selectFrom('phases as ph')
      .select(sql`1`.as('one'))
      .where('ph.closed', '=', true)
      .where(sql<boolean>`(a.started_at at time zone 'UTC')::date between ph.start_date and ph.end_date`)
      .where((w) =>
        w.or([
          w('ph.project_id', '=', w.ref('a.project_id')),
          w.and([w('ph.project_id', 'is', null), w('ph.customer_id', '=', w.ref('a.customer_id'))]),
        ]),
      ),
  );
}

export function activityRows(db: Kysely<DB>): From {
  return db.selectFrom('activities as a') as unknown as From;
}

export function selectActivity(query: From) {
  return query
    .innerJoin('members as m', 'm.id', 'a.member_id')
    .leftJoin('projects as p', 'p.id', 'a.project_id')
    .leftJoin('organizations as o', 'o.id', 'a.customer_id')
    .leftJoin('tickets as t', 't.id', 'a.ticket_id')
    .select([
      'a.id',
      'a.member_id',
      'm.display_name as author_name',
      'a.description',
      'a.started_at',
      'a.ended_at',
      'a.tags',
      'a.project_id',
      'p.key as project_key',
      'p.name as project_name',
      'a.customer_id',
      'o.name as customer_name',
      'a.ticket_id',
      't.key as ticket_key',
      't.summary as ticket_summary',
      'a.note',
      'a.billable',
      'a.created_at',
      'a.edited_at',
    ])
    .select((eb) => lockedSql(eb).as('locked'))
    .where('a.deleted_at', 'is', null);
}

export async function findActivity(db: Kysely<DB>, id: string, forUpdate = false): Promise<ActivityRow | undefined> {
  let query = selectActivity(activityRows(db)).where('a.id', '=', id);
  if (forUpdate) query = query.forUpdate('a');
  return (await query.executeTakeFirst()) as ActivityRow | undefined;
}

/** The member's running activity, locked for the change about to be made. */
export async function runningActivity(db: Kysely<DB>, memberId: string): Promise<{ id: string; started_at: string } | undefined> {
  return db
    .selectFrom('activities')
    .select(['id', 'started_at'])
    .where('member_id', '=', memberId)
    .where('ended_at', 'is', null)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export interface NewActivity {
  member_id: string;
  description: string | null;
  started_at: string;
  ended_at: string | null;
  tags: string[];
  project_id: string | null;
  customer_id: string | null;
  ticket_id: string | null;
  note: string | null;
  billable: boolean;
  created_at?: string;
}

/** The one way an activity row is written: by the API and by the workspace file's seeds. */
export async function insertActivity(db: Kysely<DB>, activity: NewActivity): Promise<string> {
  const row = await db.insertInto('activities').values(activity).returning('id').executeTakeFirstOrThrow();
  return row.id;
}
