import { sql, type Kysely } from 'kysely';
import { StructureKind, type StructureReader } from '../../core/structure-cache.ts';
import type { DB } from '../../storage/schema.ts';
import type { SummaryRow } from './present.ts';

type StatusCategory = SummaryRow['status_category'];

/** Every project's key and every ticket type's, priority's and status's name, by id. */
export interface TicketNames {
  projects: ReadonlyMap<string, string>;
  types: ReadonlyMap<string, string>;
  priorities: ReadonlyMap<string, string>;
  statuses: ReadonlyMap<string, { name: string; category: StatusCategory }>;
}

interface NamesRow {
  projects: Record<string, string>;
  types: Record<string, string>;
  priorities: Record<string, string>;
  statuses: Record<string, [string, StatusCategory]>;
}

/** All of them in one round trip: a workspace holds hundreds of these, not millions. */
async function loadTicketNames(db: Kysely<DB>): Promise<TicketNames> {
  const { rows } = await sql<NamesRow>`
    select coalesce((select json_object_agg(id, key) from projects), '{}') as projects,
           coalesce((select json_object_agg(id, name) from ticket_types), '{}') as types,
           coalesce((select json_object_agg(id, name) from priorities), '{}') as priorities,
           coalesce((select json_object_agg(id, json_build_array(name, category)) from statuses), '{}') as statuses
  `.execute(db);
  const row = rows[0]!;
  return {
    projects: new Map(Object.entries(row.projects)),
    types: new Map(Object.entries(row.types)),
    priorities: new Map(Object.entries(row.priorities)),
    statuses: new Map(Object.entries(row.statuses).map(([id, [name, category]]) => [id, { name, category }])),
  };
}

const ticketNames = new StructureKind<TicketNames>('ticket-names');

/**
 * SQL: what a summary shows of ticket `t` but its labels, as one JSON array of ids and values
 * (`SummaryCells`), its assignee `a` joined (`summaryAssigneeJoin`). The names of its project,
 * type, priority and status come from the structure store instead: a list neither joins nor
 * plans four lookups per ticket for them (a search is planned for its words on every request),
 * and a board's 500 cards do not repeat a key name 500 times.
 */
export const summaryCellsJson = sql`json_build_array(
  t.id, t.key, t.summary, t.project_id, t.type_id, t.status_id, t.priority_id, t.assignee_id, a.display_name, t.updated_at::text)`;

export const summaryAssigneeJoin = sql`left join members a on a.id = t.assignee_id`;

/** One `summaryCellsJson` as read. */
export type SummaryCells = [
  id: string,
  key: string,
  summary: string,
  projectId: string,
  typeId: string,
  statusId: string,
  priorityId: string | null,
  assigneeId: string | null,
  assigneeName: string | null,
  updatedAt: string,
];

export interface IdentifiedSummaryRow extends SummaryRow {
  id: string;
}

/** The rows, named from `names`; null when one of their ids is not there. */
function named(names: TicketNames, cells: readonly SummaryCells[], labelsOf: (id: string) => string[]): IdentifiedSummaryRow[] | null {
  const rows: IdentifiedSummaryRow[] = [];
  for (const [id, key, summary, projectId, typeId, statusId, priorityId, assigneeId, assigneeName, updatedAt] of cells) {
    const project = names.projects.get(projectId);
    const type = names.types.get(typeId);
    const status = names.statuses.get(statusId);
    const priority = priorityId === null ? null : names.priorities.get(priorityId);
    if (project === undefined || type === undefined || status === undefined || priority === undefined) return null;
    rows.push({
      id,
      key,
      summary,
      project_key: project,
      type_name: type,
      status_name: status.name,
      status_category: status.category,
      priority_name: priority,
      assignee_id: assigneeId,
      assignee_name: assigneeName,
      labels: labelsOf(id),
      updated_at: updatedAt,
    });
  }
  return rows;
}

/**
 * Summary rows from their cells, named from the structure store. Structure changes bump
 * config_version, but a request may read a ticket moved into a status created after the version
 * it read with its token: then the names are read again, uncached. Tickets refer to their
 * project, type, priority and status by foreign key, so that read knows them all.
 */
export async function summaryRowsOf(
  ctx: StructureReader,
  cells: readonly SummaryCells[],
  labelsOf: (id: string) => string[],
): Promise<IdentifiedSummaryRow[]> {
  const rows = named(await ctx.structure.get(ctx, ticketNames, '', () => loadTicketNames(ctx.db)), cells, labelsOf) ?? named(await loadTicketNames(ctx.db), cells, labelsOf);
  if (!rows) throw new Error('A ticket refers to a project, type, priority or status that no longer exists');
  return rows;
}
