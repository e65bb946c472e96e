import { sql, type Kysely, type RawBuilder } from 'kysely';
import { StructureKind, type StructureReader } from '../../core/structure-cache.ts';
import { toTimestamp } from '../../core/time.ts';
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
 * Every project's key and every ticket type's, priority's and status's name, by id; and what a
 * ticket's detail names besides: projects' kinds, types' workflows, resolutions and security levels.
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
}

interface NamesRow {
  projects: Record<string, [key: string, kind: string, defaultAssigneeId: string | null]>;
  types: Record<string, [name: string, workflowId: string]>;
  priorities: Record<string, string>;
  statuses: Record<string, [string, StatusCategory]>;
  resolutions: Record<string, string>;
  security_levels: Record<string, string>;
}

/** All of them in one round trip: a workspace holds hundreds of these, not millions. */
async function loadTicketNames(db: Kysely<DB>): Promise<TicketNames> {
  const { rows } = await sql<NamesRow>`
    select coalesce((select json_object_agg(id, json_build_array(key, kind, default_assignee_id)) from projects), '{}') as projects,
           coalesce((select json_object_agg(id, json_build_array(name, workflow_id)) from ticket_types), '{}') as types,
           coalesce((select json_object_agg(id, name) from priorities), '{}') as priorities,
           coalesce((select json_object_agg(id, json_build_array(name, category)) from statuses), '{}') as statuses,
           coalesce((select json_object_agg(id, name) from resolutions), '{}') as resolutions,
           coalesce((select json_object_agg(id, name) from security_levels), '{}') as security_levels
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
  };
}

const ticketNames = new StructureKind<TicketNames>('ticket-names');

/**
 * SQL: what a summary shows of ticket `t`, as one JSON array of ids and values (`SummaryCells`),
 * its assignee `a` joined (`summaryAssigneeJoin`), its labels as the ticket keeps them. The names
 * of its project, type, priority and status come from the structure store instead: a list neither
 * joins nor plans four lookups per ticket for them (a search is planned for its words on every
 * request), and a board's 500 cards do not repeat a key name 500 times.
 */
export const summaryCellsJson = summaryCellsJsonOf('t', 'a');

export const summaryAssigneeJoin = sql`left join members a on a.id = t.assignee_id`;

/** summaryCellsJson of ticket `ticket` with its assignee joined as `assignee`, for a list inside another ticket's statement. */
export function summaryCellsJsonOf(ticket: string, assignee: string): RawBuilder<unknown> {
  const t = (column: string) => sql.ref(`${ticket}.${column}`);
  return sql`json_build_array(
  ${t('key')}, ${t('summary')}, ${t('project_id')}, ${t('type_id')}, ${t('status_id')}, ${t('priority_id')}, ${t('assignee_id')},
  ${sql.ref(`${assignee}.display_name`)}, ${t('updated_at')}::text, ${t('label_names')})`;
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
  assigneeName: string | null,
  updatedAt: string,
  labels: string[],
];

/** A summary read from its cells: its ticket always has a status. */
export type ListedSummary = TicketSummary & { status: NonNullable<TicketSummary['status']> };

/** The summaries of `cells`, named from `names`; null when one of their ids is not there. */
export function summariesNamed(names: TicketNames, cells: readonly SummaryCells[], publicUrl: string): ListedSummary[] | null {
  const summaries: ListedSummary[] = [];
  const urlBase = ticketUrl(publicUrl, '');
  for (const [key, summary, projectId, typeId, statusId, priorityId, assigneeId, assigneeName, updatedAt, labels] of cells) {
    const project = names.projects.get(projectId);
    const type = names.types.get(typeId);
    const status = names.statuses.get(statusId);
    const priority = priorityId === null ? null : names.priorities.get(priorityId);
    if (project === undefined || type === undefined || status === undefined || priority === undefined) return null;
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
      updated_at: toTimestamp(updatedAt),
      url: urlBase + key,
    });
  }
  return summaries;
}

/**
 * What `apply` makes of the names in the structure store; null from it means an id was missing.
 * Structure changes bump config_version, but a request may read a ticket moved into a status
 * created after the version it read with its token: then the names are read again, uncached.
 * Tickets refer to their project, type, priority, status, resolution and security level by
 * foreign key, so that read knows them all.
 */
export async function withTicketNames<T>(ctx: StructureReader, apply: (names: TicketNames) => T | null): Promise<T> {
  const result = apply(await ctx.structure.get(ctx, ticketNames, '', () => loadTicketNames(ctx.db))) ?? apply(await loadTicketNames(ctx.db));
  if (result === null) throw new Error('A ticket refers to a project, type, priority, status, resolution or security level that no longer exists');
  return result;
}

/** TicketSummaries from their cells, named from the structure store: a list's cards are built once, as answered. */
export function summariesOf(
  ctx: StructureReader & { publicUrl: string },
  cells: readonly SummaryCells[],
): Promise<ListedSummary[]> {
  return withTicketNames(ctx, (names) => summariesNamed(names, cells, ctx.publicUrl));
}
