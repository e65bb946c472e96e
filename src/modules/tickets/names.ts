import { sql, type Kysely, type RawBuilder } from 'kysely';
import { StructureKind, type StructureReader } from '../../core/structure-cache.ts';
import { timestampText } from '../../core/time.ts';
import type { DB } from '../../storage/schema.ts';
import { person, ticketUrl, type SummaryRow } from './present.ts';
import type { TicketSummary } from './schemas.ts';

type StatusCategory = SummaryRow['status_category'];

/** What a ticket's row names of its project beyond the key. */
export interface ProjectNaming {
  kind: string;
  defaultAssigneeId: string | null;
}

/**
 * Every project's key and every ticket type's, priority's and status's name, by id; every member's
 * display name; and what a ticket's detail names besides: projects' kinds, types' workflows,
 * resolutions and security levels.
 */
export interface TicketNames {
  projects: ReadonlyMap<string, string>;
  types: ReadonlyMap<string, string>;
  priorities: ReadonlyMap<string, string>;
  statuses: ReadonlyMap<string, { name: string; category: StatusCategory }>;
  projectNaming: ReadonlyMap<string, ProjectNaming>;
  typeWorkflows: ReadonlyMap<string, string>;
  resolutions: ReadonlyMap<string, string>;
  securityLevels: ReadonlyMap<string, string>;
  /** Display names, written only by the workspace apply and the CLI, each with config_version bumped. */
  members: ReadonlyMap<string, string>;
}

/** The display name of member `id`: null for no one, undefined when `names` does not know them. */
export function memberName(names: TicketNames, id: string | null): string | null | undefined {
  return id === null ? null : names.members.get(id);
}

interface NamesRow {
  projects: Record<string, [key: string, kind: string, defaultAssigneeId: string | null]>;
  types: Record<string, [name: string, workflowId: string]>;
  priorities: Record<string, string>;
  statuses: Record<string, [string, StatusCategory]>;
  resolutions: Record<string, string>;
  security_levels: Record<string, string>;
  members: Record<string, string>;
}

/** All of them in one round trip: a workspace holds hundreds of these, not millions. */
async function loadTicketNames(db: Kysely<DB>): Promise<TicketNames> {
  const { rows } = await sql<NamesRow>`
    select coalesce((select json_object_agg(id, json_build_array(key, kind, default_assignee_id)) from projects), '{}') as projects,
           coalesce((select json_object_agg(id, json_build_array(name, workflow_id)) from ticket_types), '{}') as types,
           coalesce((select json_object_agg(id, name) from priorities), '{}') as priorities,
           coalesce((select json_object_agg(id, json_build_array(name, category)) from statuses), '{}') as statuses,
           coalesce((select json_object_agg(id, name) from resolutions), '{}') as resolutions,
           coalesce((select json_object_agg(id, name) from security_levels), '{}') as security_levels,
           coalesce((select json_object_agg(id, display_name) from members), '{}') as members
  `.execute(db);
  const row = rows[0]!;
  const projects = Object.entries(row.projects);
  const types = Object.entries(row.types);
  return {
    projects: new Map(projects.map(([id, [key]]) => [id, key])),
    types: new Map(types.map(([id, [name]]) => [id, name])),
    priorities: new Map(Object.entries(row.priorities)),
    statuses: new Map(Object.entries(row.statuses).map(([id, [name, category]]) => [id, { name, category }])),
    projectNaming: new Map(projects.map(([id, [, kind, defaultAssigneeId]]) => [id, { kind, defaultAssigneeId }])),
    typeWorkflows: new Map(types.map(([id, [, workflowId]]) => [id, workflowId])),
    resolutions: new Map(Object.entries(row.resolutions)),
    securityLevels: new Map(Object.entries(row.security_levels)),
    members: new Map(Object.entries(row.members)),
  };
}

const ticketNames = new StructureKind<TicketNames>('ticket-names');

/**
 * SQL: what a summary shows of ticket `t`, as one JSON array of ids and values (`SummaryCells`),
 * its labels as the ticket keeps them. The names of its project, type, priority, status and
 * assignee come from the structure store instead: a list neither joins nor plans five lookups per
 * ticket for them (a search is planned for its words on every request), and a board's 500 cards
 * do not repeat a key name 500 times.
 */
export const summaryCellsJson = summaryCellsJsonOf('t');

/** summaryCellsJson of the ticket named `ticket`, for a list inside another ticket's statement. */
export function summaryCellsJsonOf(ticket: string): RawBuilder<unknown> {
  const t = (column: string) => sql.ref(`${ticket}.${column}`);
  return sql`json_build_array(
  ${t('key')}, ${t('summary')}, ${t('project_id')}, ${t('type_id')}, ${t('status_id')}, ${t('priority_id')}, ${t('assignee_id')},
  ${timestampText(t('updated_at'))}, ${t('label_names')})`;
}

/** One `summaryCellsJson` as read. */
export type SummaryCells = [
  key: string,
  summary: string,
  projectId: string,
  typeId: string,
  statusId: string,
  priorityId: string | null,
  assigneeId: string | null,
  updatedAt: string,
  labels: string[],
];

/** A summary read from its cells: its ticket always has a status. */
export type ListedSummary = TicketSummary & { status: NonNullable<TicketSummary['status']> };

/** The summaries of `cells`, named from `names`; null when one of their ids is not there. */
export function summariesNamed(names: TicketNames, cells: readonly SummaryCells[], publicUrl: string): ListedSummary[] | null {
  const summaries: ListedSummary[] = [];
  const urlBase = ticketUrl(publicUrl, '');
  for (const [key, summary, projectId, typeId, statusId, priorityId, assigneeId, updatedAt, labels] of cells) {
    const project = names.projects.get(projectId);
    const type = names.types.get(typeId);
    const status = names.statuses.get(statusId);
    const priority = priorityId === null ? null : names.priorities.get(priorityId);
    const assigneeName = memberName(names, assigneeId);
    if (project === undefined || type === undefined || status === undefined || priority === undefined || assigneeName === undefined)
      return null;
    summaries.push({
      key,
      summary,
      project,
      type,
      // the store's frozen {name, category}: one object for every card in that status
      status,
      priority,
      assignee: person(assigneeId, assigneeName),
      labels,
      updated_at: updatedAt,
      url: urlBase + key,
    });
  }
  return summaries;
}

/**
 * What `apply` makes of the names in the structure store; null from it means an id was missing.
 * Structure changes bump config_version, but a request may read a ticket moved into a status
 * created after the version it read with its token: then the names are read again, uncached.
 * Tickets refer to their project, type, priority, status, resolution, security level and people
 * by foreign key, so that read knows them all.
 */
export async function withTicketNames<T>(ctx: StructureReader, apply: (names: TicketNames) => T | null): Promise<T> {
  const result =
    apply(await ctx.structure.get(ctx, ticketNames, '', () => loadTicketNames(ctx.db))) ?? apply(await loadTicketNames(ctx.db));
  if (result === null)
    throw new Error('A ticket refers to a project, type, priority, status, resolution, security level or member that no longer exists');
  return result;
}

/** TicketSummaries from their cells, named from the structure store: a list's cards are built once, as answered. */
export function summariesOf(ctx: StructureReader & { publicUrl: string }, cells: readonly SummaryCells[]): Promise<ListedSummary[]> {
  return withTicketNames(ctx, (names) => summariesNamed(names, cells, ctx.publicUrl));
}
