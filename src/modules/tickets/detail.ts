import { sql, type Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import { normalizeKey } from '../../core/names.ts';
import { memberRolesSql } from '../../policy/ability.ts';
import { levelGrantedSql, projectVisibleSql, readableCommentSql, visibleTicketSql, type TicketAccess, type TicketScope } from './visibility.ts';
import type { CommentRow, SummaryRow, WorklogRow } from './present.ts';
import { ticketRowColumns, ticketStateColumns, type TicketRow, type TicketState } from './repo.ts';

export interface LinkRow {
  relation: string;
  key: string;
  summary: string;
  status_name: string;
  status_category: TicketState['status_category'];
}

/** A ticket with everything GET /tickets/{key} shows, and whether the member may see it at all. */
export interface TicketDetailRow extends TicketState, TicketRow, TicketAccess {
  /** The children below are read only when both flags hold; null otherwise. */
  comments: CommentRow[] | null;
  worklogs: WorklogRow[] | null;
  links: LinkRow[] | null;
  subtasks: SummaryRow[] | null;
  /** Roles the member holds in the ticket's project, for transition conditions. */
  role_ids: string[] | null;
}

/**
 * One ticket by key with its children in one round trip (ARCHITECTURE §1): comments the member may
 * read (oldest first), worklogs (newest first), links and subtasks to tickets they may see, each
 * as a JSON array. Visibility is decided in the query: the children are only read when the ticket
 * itself is visible. Timestamps are cast to text, the form every other read returns them in.
 */
export async function findTicketDetail(db: Kysely<DB>, key: string, scope: TicketScope): Promise<TicketDetailRow | undefined> {
  const visible = sql`(v.project_visible and v.level_granted)`;
  // an administrator's conditions on roles always hold: their roles are not read
  const roleIds = scope.isAdmin
    ? sql`null::uuid[]`
    : sql`case when ${visible} then array(${memberRolesSql(scope.memberId, sql.ref('t.project_id'))}) end`;
  const result = await sql<TicketDetailRow>`/*prepare*/
    select ${ticketStateColumns}, ${ticketRowColumns},
      v.project_visible, v.level_granted,
      case when ${visible} then coalesce((
        -- the author's name looked up per comment: joined, the plan read every member to hash them
        -- for a ticket's few comments (a sixth of the statement's time with 500 members)
        select json_agg(json_build_object(
                 'id', c.id, 'author_id', c.author_id, 'author_name', (select display_name from members where id = c.author_id),
                 'body_format', c.body_format, 'body_text', c.body_text, 'visibility', c.visibility,
                 'created_at', c.created_at::text, 'edited_at', c.edited_at::text)
               order by c.created_at, c.id)
        from comments c
        where c.ticket_id = t.id and ${readableCommentSql(scope)}), '[]') end as comments,
      case when ${visible} then coalesce((
        select json_agg(json_build_object(
                 'id', w.id, 'author_id', w.author_id, 'author_name', m.display_name, 'started_at', w.started_at::text,
                 'time_spent_seconds', w.time_spent_seconds, 'body_format', w.body_format, 'body_text', w.body_text,
                 'created_at', w.created_at::text, 'edited_at', w.edited_at::text)
               order by w.started_at desc, w.created_at desc)
        from worklogs w left join members m on m.id = w.author_id
        where w.ticket_id = t.id), '[]') end as worklogs,
      case when ${visible} then coalesce((
        select json_agg(json_build_object('relation', x.relation, 'key', o.key, 'summary', o.summary,
                                          'status_name', os.name, 'status_category', os.category)
               order by x.created_at, o.key)
        from (
          select l.outward as relation, l.target_id as other_id, l.created_at from ticket_links l where l.source_id = t.id
          union all
          select l.inward, l.source_id, l.created_at from ticket_links l where l.target_id = t.id
        ) x
        join tickets o on o.id = x.other_id
        join statuses os on os.id = o.status_id
        where ${visibleTicketSql(scope, 'o')}), '[]') end as links,
      case when ${visible} then coalesce((
        -- names by scalar subqueries, as in ticketRowColumns: a six-way join here cost more to plan than to run
        select json_agg(json_build_object(
                 'key', c.key, 'summary', c.summary,
                 'project_key', (select key from projects where id = c.project_id),
                 'type_name', (select name from ticket_types where id = c.type_id),
                 'status_name', cs.name, 'status_category', cs.category,
                 'priority_name', (select name from priorities where id = c.priority_id),
                 'assignee_id', c.assignee_id,
                 'assignee_name', (select display_name from members where id = c.assignee_id),
                 'updated_at', c.updated_at::text,
                 'labels', coalesce((select array_agg(l.name order by l.name) from ticket_labels tl
                                     join labels l on l.id = tl.label_id where tl.ticket_id = c.id), '{}'))
               order by c.rank nulls last, c.number)
        from tickets c join statuses cs on cs.id = c.status_id
        where c.parent_id = t.id and ${visibleTicketSql(scope, 'c')}), '[]') end as subtasks,
      ${roleIds} as role_ids
    from tickets t
    join projects p on p.id = t.project_id
    join ticket_types tt on tt.id = t.type_id
    join statuses s on s.id = t.status_id
    -- the member's visibility of this ticket, computed once: "offset 0" keeps the planner from
    -- copying these expressions into every place that names them
    cross join lateral (
      select ${projectVisibleSql(scope)} as project_visible, ${levelGrantedSql(scope)} as level_granted
      offset 0
    ) v
    where t.key = ${normalizeKey(key)}
  `.execute(db);
  return result.rows[0];
}
