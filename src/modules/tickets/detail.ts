import { sql, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import type { PendingTokenCheck } from '../../core/context.ts';
import type { StructureReader } from '../../core/structure-cache.ts';
import { tokenCheckColumn, type TokenCheckValues } from '../../core/token-check.ts';
import { compiledTemplate } from '../../storage/compiled-template.ts';
import type { DB } from '../../storage/schema.ts';
import { normalizeKey } from '../../core/names.ts';
import { memberRolesSql } from '../../policy/ability.ts';
import {
  isVisible,
  readableCommentSql,
  ticketAccessOf,
  type TicketAccess,
  type TicketAccessFacts,
  type TicketScope,
} from './visibility.ts';
import {
  memberName,
  summariesNamed,
  summaryCellsJsonOf,
  withTicketNames,
  type ListedSummary,
  type SummaryCells,
  type TicketNames,
} from './names.ts';
import type { CommentRow, WorklogRow } from './present.ts';
import { cachedProjectConfig, loadProjectConfig, type ProjectConfig } from './project-config.ts';
import {
  ticketListIdColumns,
  ticketScalarColumns,
  type TicketListIds,
  type TicketLists,
  type TicketRow,
  type TicketState,
  type TicketStructureNames,
} from './repo.ts';

export interface LinkRow {
  relation: string;
  key: string;
  summary: string;
  status_name: string;
  status_category: TicketState['status_category'];
}

/** A link as the detail's statement reads it: the other ticket's status by id. */
type LinkRead = Omit<LinkRow, 'status_name' | 'status_category'> & { status_id: string };

/** A comment or worklog as the detail's statement reads it: its author by id. */
type AuthoredRead<R extends { author_name: string | null }> = Omit<R, 'author_name'>;

/** A ticket with everything GET /tickets/{key} shows, and whether the member may see it at all. */
export interface TicketDetailRow extends TicketState, TicketRow, TicketAccess {
  /** The children below are kept only when both flags hold; null otherwise. */
  comments: CommentRow[] | null;
  worklogs: WorklogRow[] | null;
  links: LinkRow[] | null;
  subtasks: ListedSummary[] | null;
  /** Roles the member holds in the ticket's project, for transition conditions. */
  role_ids: string[] | null;
}

/** What the detail's row names from the structure store rather than reading it. */
type DetailNames = TicketStructureNames & Pick<TicketState, 'project_default_assignee_id' | 'workflow_id'>;

/** The names of its people the detail's row shows: read from the structure store too. */
type PeopleNames = Pick<TicketRow, 'assignee_name' | 'reporter_name'>;

/**
 * The detail as its statement reads it: ids where the answer shows names (its people's and its
 * comments' and worklogs' authors' too), the ticket's lists by id, links' statuses by id and
 * subtasks as summary cells.
 */
export type TicketDetailRead = Omit<
  TicketDetailRow,
  keyof DetailNames | keyof PeopleNames | keyof TicketLists | 'comments' | 'worklogs' | 'links' | 'subtasks'
> &
  TicketListIds & {
    comments: AuthoredRead<CommentRow>[] | null;
    worklogs: AuthoredRead<WorklogRow>[] | null;
    links: LinkRead[] | null;
    subtasks: SummaryCells[] | null;
  };

/** The detail before its lists are named: what the workspace-wide names give. */
type NamedDetail = Omit<TicketDetailRow, keyof TicketLists>;

function namedDetail(names: TicketNames, read: TicketDetailRead, publicUrl: string): NamedDetail | null {
  const projectKey = names.projects.get(read.project_id);
  const project = names.projectNaming.get(read.project_id);
  const typeName = names.types.get(read.type_id);
  const workflowId = names.typeWorkflows.get(read.type_id);
  const status = names.statuses.get(read.status_id);
  const priority = read.priority_id === null ? null : names.priorities.get(read.priority_id);
  const resolution = read.resolution_id === null ? null : names.resolutions.get(read.resolution_id);
  const level = read.security_level_id === null ? null : names.securityLevels.get(read.security_level_id);
  if (projectKey === undefined || project === undefined || typeName === undefined || workflowId === undefined || status === undefined)
    return null;
  if (priority === undefined || resolution === undefined || level === undefined) return null;
  const assigneeName = memberName(names, read.assignee_id);
  const reporterName = memberName(names, read.reporter_id);
  if (assigneeName === undefined || reporterName === undefined) return null;
  const comments = read.comments === null ? null : authorsNamed(names, read.comments);
  const worklogs = read.worklogs === null ? null : authorsNamed(names, read.worklogs);
  const links = read.links === null ? null : linksNamed(names, read.links);
  const subtasks = read.subtasks === null ? null : summariesNamed(names, read.subtasks, publicUrl);
  if (comments === undefined || worklogs === undefined || links === undefined || subtasks === null) return null;
  return {
    ...read,
    assignee_name: assigneeName,
    reporter_name: reporterName,
    comments,
    worklogs,
    links,
    subtasks,
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

/** Comments or worklogs with their authors named; undefined when one is not in `names`. */
function authorsNamed<R extends { author_id: string | null }>(
  names: TicketNames,
  read: readonly R[],
): (R & { author_name: string | null })[] | undefined {
  const named: (R & { author_name: string | null })[] = [];
  for (const item of read) {
    const authorName = memberName(names, item.author_id);
    if (authorName === undefined) return undefined;
    named.push({ ...item, author_name: authorName });
  }
  return named;
}

/** Links with their statuses named; undefined when one is not in `names`. */
function linksNamed(names: TicketNames, links: readonly LinkRead[]): LinkRow[] | undefined {
  const named: LinkRow[] = [];
  for (const { status_id, ...link } of links) {
    const status = names.statuses.get(status_id);
    if (status === undefined) return undefined;
    named.push({ ...link, status_name: status.name, status_category: status.category });
  }
  return named;
}

/** The names of those `items` whose ids are in `ids`, in `items`' order (the project's); null when an id is not there. */
function pickedNames(items: readonly { id: string; name: string }[], ids: readonly string[]): string[] | null {
  const picked = items.filter((item) => ids.includes(item.id));
  return picked.length === ids.length ? picked.map((item) => item.name) : null;
}

/** The ticket's components, versions and fields named in its project's order; null when an id is not in `config`. */
function listsNamed(config: ProjectConfig, read: TicketListIds): TicketLists | null {
  const components = pickedNames(config.components, read.component_ids);
  const fixVersions = pickedNames(config.versions, read.fix_version_ids);
  const affectedVersions = pickedNames(config.versions, read.affected_version_ids);
  if (components === null || fixVersions === null || affectedVersions === null) return null;
  if (read.field_values.length === 0) return { components, fix_versions: fixVersions, affected_versions: affectedVersions, fields: null };
  const values = Object.fromEntries(read.field_values);
  const present = config.fields.filter((field) => field.id in values);
  if (present.length !== read.field_values.length) return null;
  const fields = Object.fromEntries(present.map((field) => [field.key, values[field.id]!]));
  return { components, fix_versions: fixVersions, affected_versions: affectedVersions, fields };
}

/**
 * The detail with its project, type, status, priority, resolution, level, its links' statuses and
 * subtasks, and its components, versions and fields named from the structure store. A ticket
 * never changes project, so its lists name things of its project; one created after the version
 * this request read is found by reading the project again, uncached.
 */
export async function nameTicketDetail(ctx: StructureReader & { publicUrl: string }, read: TicketDetailRead): Promise<TicketDetailRow> {
  const named = await withTicketNames(ctx, (names) => namedDetail(names, read, ctx.publicUrl));
  const project = {
    id: named.project_id,
    key: named.project_key,
    kind: named.project_kind,
    default_assignee_id: named.project_default_assignee_id,
  };
  const lists = listsNamed(await cachedProjectConfig(ctx, project), read) ?? listsNamed(await loadProjectConfig(ctx.db, project), read);
  if (lists === null) throw new Error('A ticket refers to a component, version or custom field its project no longer has');
  return { ...named, ...lists };
}

/**
 * SQL: one ticket by key (normalized) with its children in one round trip (ARCHITECTURE §1):
 * comments the member may read (oldest first), worklogs (newest first), links and subtasks with
 * the project and level of the ticket at their other end, each as a JSON array, and with `check`
 * the token's check as one more column. Whether the member may see the ticket, its links and its
 * subtasks is left to findTicketDetail (ticketAccessOf): the member's two scope lists as
 * parameters, read at every bind and tested in five places, were a quarter of the statement's
 * time in PostgreSQL (ADR 0007). Timestamps are cast to text, the form every other read returns
 * them in. Names of the workspace's structure are left to nameTicketDetail: joined here, the
 * project, type and status and the lookups of the other names were a fifth of the statement's
 * cost, set up on every execution (ADR 0037). Lists are ARRAY subqueries, not aggregates: an
 * aggregate's set-up was an eighth of the statement's time.
 */
function detailSql(key: string, scope: DetailScope, check: TokenCheckValues | null): RawBuilder<DetailStatementRow> {
  // an administrator's conditions on roles always hold: their roles are not read
  const roleIds = scope.isAdmin ? sql`null::uuid[]` : sql`array(${memberRolesSql(scope.memberId, sql.ref('t.project_id'))})`;
  return sql<DetailStatementRow>`/*prepare*/
    select ${check ? sql`${tokenCheckColumn(check, 'prepared')} as token_check,` : sql``} ${ticketScalarColumns}, ${ticketListIdColumns}, t.type_id, t.status_id, t.priority_id, t.resolution_id, t.parent_id,
      array_to_json(array(
        select json_build_object(
                 'id', c.id, 'author_id', c.author_id, 'body_format', c.body_format, 'body_text', c.body_text, 'visibility', c.visibility,
                 'created_at', c.created_at::text, 'edited_at', c.edited_at::text)
        from comments c
        where c.ticket_id = t.id and ${readableCommentSql(scope)}
        order by c.created_at, c.id)) as comments,
      array_to_json(array(
        select json_build_object(
                 'id', w.id, 'author_id', w.author_id, 'started_at', w.started_at::text,
                 'time_spent_seconds', w.time_spent_seconds, 'body_format', w.body_format, 'body_text', w.body_text,
                 'created_at', w.created_at::text, 'edited_at', w.edited_at::text)
        from worklogs w
        where w.ticket_id = t.id
        order by w.started_at desc, w.created_at desc)) as worklogs,
      array_to_json(array(
        select json_build_object('relation', x.relation, 'key', o.key, 'summary', o.summary, 'status_id', o.status_id,
                 'project_id', o.project_id, 'security_level_id', o.security_level_id)
        from (
          select l.outward as relation, l.target_id as other_id, l.created_at from ticket_links l where l.source_id = t.id
          union all
          select l.inward, l.source_id, l.created_at from ticket_links l where l.target_id = t.id
        ) x
        join tickets o on o.id = x.other_id
        order by x.created_at, o.key)) as links,
      array_to_json(array(
        select json_build_array(${summaryCellsJsonOf('c')}, c.security_level_id)
        from tickets c
        where c.parent_id = t.id
        order by c.rank nulls last, c.number)) as subtasks,
      ${roleIds} as role_ids
    from tickets t
    where t.key = ${key}
  `;
}

/** The member a detail's statement reads for: whose restricted comments and roles. */
type DetailScope = Pick<TicketScope, 'memberId' | 'isAdmin'>;

/** The detail as its statement returns it: no access flags yet, and the ends of links and subtasks placed. */
type DetailStatementRow = Omit<TicketDetailRead, keyof TicketAccess | 'links' | 'subtasks' | 'comments' | 'worklogs' | 'role_ids'> & {
  comments: AuthoredRead<CommentRow>[];
  worklogs: AuthoredRead<WorklogRow>[];
  links: (LinkRead & TicketAccessFacts)[];
  subtasks: [cells: SummaryCells, securityLevelId: string | null][];
  role_ids: string[] | null;
  token_check?: unknown;
};

// Nobody's: an administrator's statement reads no restricted comment's group or role, so it names no member.
const ADMIN_SCOPE: DetailScope = { memberId: '', isAdmin: true };

/**
 * The detail's statement compiled once per database handle for each shape it takes: a member's
 * or an administrator's, with or without the token's check. Building and compiling it again cost
 * about 55 µs of the service's CPU on every GET of a ticket (ADR 0036).
 */
const detailStatements = {
  member: {
    checked: compiledTemplate(4, (key: string, memberId: string, hash: string, clock: string | null) =>
      detailSql(key, { memberId, isAdmin: false }, [hash, clock]),
    ),
    unchecked: compiledTemplate(2, (key: string, memberId: string) => detailSql(key, { memberId, isAdmin: false }, null)),
  },
  admin: {
    checked: compiledTemplate(3, (key: string, hash: string, clock: string | null) => detailSql(key, ADMIN_SCOPE, [hash, clock])),
    unchecked: compiledTemplate(1, (key: string) => detailSql(key, ADMIN_SCOPE, null)),
  },
};

function detailStatement(
  db: Kysely<DB>,
  key: string,
  scope: DetailScope,
  check: TokenCheckValues | null,
): CompiledQuery<DetailStatementRow> {
  if (scope.isAdmin) return check ? detailStatements.admin.checked(db, key, ...check) : detailStatements.admin.unchecked(db, key);
  return check
    ? detailStatements.member.checked(db, key, scope.memberId, ...check)
    : detailStatements.member.unchecked(db, key, scope.memberId);
}

/** A link without where its other end is, once ticketAccessOf has decided on it. */
function unplaced({ relation, key, summary, status_id }: LinkRead & TicketAccessFacts): LinkRead {
  return { relation, key, summary, status_id };
}

/**
 * The detail as the member may see it: its access flags, and only when both hold its children,
 * with the links and subtasks to tickets they may see (null otherwise).
 */
function seenDetail(row: Omit<DetailStatementRow, 'token_check'>, scope: TicketScope): TicketDetailRead {
  const access = ticketAccessOf(scope, row);
  if (!isVisible(access)) return { ...row, ...access, comments: null, worklogs: null, links: null, subtasks: null, role_ids: null };
  const links = row.links.filter((link) => isVisible(ticketAccessOf(scope, link))).map(unplaced);
  const subtasks = row.subtasks
    .filter(([cells, level]) => isVisible(ticketAccessOf(scope, { project_id: cells[2], security_level_id: level })))
    .map(([cells]) => cells);
  return { ...row, ...access, links, subtasks };
}

/** One ticket by key with its children (detailSql) as the member may see them, carrying the token's check when there is one to make. */
export async function findTicketDetail(
  db: Kysely<DB>,
  key: string,
  scope: TicketScope,
  tokenCheck?: PendingTokenCheck,
): Promise<TicketDetailRead | undefined> {
  const result = await db.executeQuery(detailStatement(db, normalizeKey(key), scope, tokenCheck?.values ?? null));
  const row = result.rows[0];
  if (!row) return undefined;
  const { token_check: check, ...read } = row;
  if (tokenCheck) tokenCheck.offer(check);
  return seenDetail(read, scope);
}
