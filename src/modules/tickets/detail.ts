import { sql, type Kysely } from 'kysely';
import type { StructureReader } from '../../core/structure-cache.ts';
import type { DB } from '../../storage/schema.ts';
import { normalizeKey } from '../../core/names.ts';
import { memberRolesSql } from '../../policy/ability.ts';
import { levelGrantedSql, projectVisibleSql, readableCommentSql, visibleTicketSql, type TicketAccess, type TicketScope } from './visibility.ts';
import { withTicketNames, type TicketNames } from './names.ts';
import type { CommentRow, SummaryRow, WorklogRow } from './present.ts';
import { ticketOwnColumns, type TicketRow, type TicketState, type TicketStructureNames } from './repo.ts';

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

/** What the detail's row names from the structure store rather than reading it. */
type DetailNames = TicketStructureNames & Pick<TicketState, 'project_default_assignee_id' | 'workflow_id'>;

/** The detail as its statement reads it: ids where the answer shows names. */
export type TicketDetailRead = Omit<TicketDetailRow, keyof DetailNames>;

function namedDetail(names: TicketNames, read: TicketDetailRead): TicketDetailRow | null {
  const projectKey = names.projects.get(read.project_id);
  const project = names.projectNaming.get(read.project_id);
  const typeName = names.types.get(read.type_id);
  const workflowId = names.typeWorkflows.get(read.type_id);
  const status = names.statuses.get(read.status_id);
  const priority = read.priority_id === null ? null : names.priorities.get(read.priority_id);
  const resolution = read.resolution_id === null ? null : names.resolutions.get(read.resolution_id);
  const level = read.security_level_id === null ? null : names.securityLevels.get(read.security_level_id);
  if (projectKey === undefined || project === undefined || typeName === undefined || workflowId === undefined || status === undefined) return null;
  if (priority === undefined || resolution === undefined || level === undefined) return null;
  return {
    ...read,
    project_key: projectKey,
    project_kind: project.kind,
    project_default_assignee_id: project.defaultAssigneeId,
    type_name: typeName,
    workflow_id: workflowId,
    status_name: status.name,
    status_category: status.category,
    priority_name: priority,
    resolution_name: resolution,
    security_level_name: level,
  };
}

/** The detail with its project, type, status, priority, resolution and level named from the structure store. */
export function nameTicketDetail(ctx: StructureReader, read: TicketDetailRead): Promise<TicketDetailRow> {
  return withTicketNames(ctx, (names) => namedDetail(names, read));
}

/**
 * One ticket by key with its children in one round trip (ARCHITECTURE §1): comments the member may
 * read (oldest first), worklogs (newest first), links and subtasks to tickets they may see, each
 * as a JSON array. Visibility is decided in the query: the children are only read when the ticket
 * itself is visible. Timestamps are cast to text, the form every other read returns them in.
 * Names of the workspace's structure are left to nameTicketDetail: joined here, the project, type
 * and status and the lookups of the other names were a fifth of the statement's cost in
 * PostgreSQL, set up on every execution (issue 15).
 */
export async function findTicketDetail(db: Kysely<DB>, key: string, scope: TicketScope): Promise<TicketDetailRead | undefined> {
  const visible = sql`(v.project_visible and v.level_granted)`;
  // an administrator's conditions on roles always hold: their roles are not read
  const roleIds = scope.isAdmin
    ? sql`null::uuid[]`
    : sql`case when ${visible} then array(${memberRolesSql(scope.memberId, sql.ref('t.project_id'))}) end`;
  const result = await sql<TicketDetailRead>`/*prepare*/
    select ${ticketOwnColumns}, t.type_id, t.status_id, t.priority_id, t.resolution_id, t.parent_id,
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
                 'labels', c.label_names)
               order by c.rank nulls last, c.number)
        from tickets c join statuses cs on cs.id = c.status_id
        where c.parent_id = t.id and ${visibleTicketSql(scope, 'c')}), '[]') end as subtasks,
      ${roleIds} as role_ids
    from tickets t
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
