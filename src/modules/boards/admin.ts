import { sql } from 'kysely';
import { recordAudit } from '../../core/audit.ts';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { normalizeKey, normalizeName } from '../../core/names.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { ChangeLog } from '../../workspace/changes.ts';
import { Writer, type StoredRow } from '../../workspace/writer.ts';
import { memberMayAdminister, requireBoardAdministration } from './admin-policy.ts';
import type { BoardSettings, BoardSettingsBody, DeletedBoard } from './admin-schemas.ts';
import { checkBoardConfig, writeBoardConfig, type BoardConfig, type BoardVocabulary, type ColumnConfig } from './board-config.ts';
import { loadVisibleBoard } from './policy.ts';
import { boardColumnRows, boardProjects, findBoardRow, type BoardRow } from './repo.ts';

/** The form's input as the configuration the workspace file also gives (board-config.ts). */
function configOf(input: BoardSettingsBody, columns: BoardConfig['columns']): BoardConfig {
  return {
    name: input.name,
    kind: input.kind,
    projects: input.all_projects ? 'all' : (input.projects ?? []),
    columns: input.columns ?? columns,
    swimlanes: input.swimlanes,
    quick_filters: input.quick_filters,
    filter: input.filter,
  };
}

const CATEGORY_COLUMNS = [
  { category: 'todo', name: 'To Do' },
  { category: 'in_progress', name: 'In Progress' },
  { category: 'done', name: 'Done' },
] as const;

/** A new board's first columns: one per status category of its projects' workflows, statuses in workflow order. */
async function columnsByCategory(ctx: Context, projects: BoardConfig['projects']): Promise<ColumnConfig[]> {
  const keys = projects === 'all' ? null : projects.map(normalizeKey);
  const rows = await sql<{ name: string; category: string | null }>`
    select s.name, min(s.category) as category from statuses s
    where ${keys === null ? sql`true` : sql`s.workflow_id in (select tt.workflow_id from ticket_types tt join projects p on p.id = tt.project_id where upper(p.key) = any(${keys}::text[]))`}
    group by s.name order by min(s.position), s.name
  `.execute(ctx.db);
  return CATEGORY_COLUMNS.map(({ category, name }) => ({
    name,
    statuses: rows.rows.filter((r) => r.category === category).map((r) => r.name),
  })).filter((column) => column.statuses.length > 0);
}

async function vocabulary(ctx: Context): Promise<BoardVocabulary> {
  const [statuses, projects, types] = await Promise.all([
    ctx.db.selectFrom('statuses').select('name').distinct().execute(),
    ctx.db.selectFrom('projects').select('key').execute(),
    ctx.db.selectFrom('ticket_types').select('name').distinct().execute(),
  ]);
  return {
    statuses: statuses.map((s) => s.name),
    projectKeys: projects.map((p) => p.key.toUpperCase()),
    ticketTypes: types.map((t) => t.name),
  };
}

/** A mistake in the form, as every door says it: 422 `invalid` at its JSON pointer. */
const refuseAsInput = (parts: readonly (string | number)[], reason: string): never => {
  throw invalid(`/${parts.join('/')}`, reason);
};

async function projectIdsOf(ctx: Context, config: BoardConfig): Promise<string[] | 'all'> {
  if (config.projects === 'all') return 'all';
  const keys = config.projects.map(normalizeKey);
  const rows = await ctx.db.selectFrom('projects').select(['id', 'key']).execute();
  return keys.map((key) => rows.find((p) => p.key.toUpperCase() === key)!.id);
}

/** A board's settings read from the tables (not the structure store: a change of this request is not there yet). */
async function settingsOf(ctx: Context, row: BoardRow): Promise<BoardSettings> {
  const [projects, columns] = await Promise.all([boardProjects(ctx.db, [row]), boardColumnRows(ctx.db, row.id)]);
  const drawn = projects.get(row.id) ?? [];
  const statuses = await sql<{ name: string }>`
    select s.name from statuses s
    where ${row.all_projects ? sql`true` : sql`s.workflow_id in (select tt.workflow_id from ticket_types tt where tt.project_id = any(${drawn.map((p) => p.id)}::uuid[]))`}
    group by s.name order by min(s.position), s.name
  `.execute(ctx.db);
  const names = statuses.rows.map((s) => s.name);
  const mapped = new Set(columns.flatMap((c) => c.statuses.map(normalizeName)));
  return {
    number: row.number,
    name: row.name,
    kind: row.kind,
    all_projects: row.all_projects,
    projects: drawn.map((p) => p.key),
    swimlanes: row.swimlanes,
    quick_filters: row.quick_filters,
    filter: { types: row.filter?.types ?? [], labels: row.filter?.labels ?? [] },
    columns: columns.map((c) => ({ index: c.position, name: c.name, statuses: c.statuses, min: c.min_tickets, max: c.max_tickets })),
    statuses: names,
    unmapped_statuses: names.filter((name) => !mapped.has(normalizeName(name))),
  };
}

/** What the audit log says of a board's settings: the values people set, columns as one line each. */
function auditValues(settings: BoardSettings | null): Record<string, unknown> {
  if (!settings) return {};
  return {
    name: settings.name,
    kind: settings.kind,
    projects: settings.all_projects ? 'all' : settings.projects,
    swimlanes: settings.swimlanes,
    quick_filters: settings.quick_filters.map((q) => q.name),
    filter: [...settings.filter.types.map((t) => `type ${t}`), ...settings.filter.labels.map((l) => `label ${l}`)],
    columns: settings.columns.map((c) => {
      const limits = c.min === null && c.max === null ? '' : ` (${c.min ?? 0}–${c.max ?? '∞'})`;
      return `${c.name ?? `Column ${c.index + 1}`}: ${c.statuses.join(', ') || 'no status'}${limits}`;
    }),
  };
}

function differences(before: Record<string, unknown>, after: Record<string, unknown>): HistoryChange[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null))
    .map((field) => ({ field, from: before[field] ?? null, to: after[field] ?? null }));
}

async function audit(ctx: Context, action: string, id: string, number: number, before: BoardSettings | null, after: BoardSettings | null) {
  await recordAudit(ctx, {
    action: `board.${action}`,
    targetType: 'board',
    targetId: id,
    target: `board ${number} ${(after ?? before)?.name ?? ''}`.trim(),
    changes: differences(auditValues(before), auditValues(after)),
  });
}

/** Boards are workspace structure, kept between requests by config_version (structure.ts): a change bumps it. */
async function bumpConfigVersion(ctx: Context): Promise<void> {
  await ctx.db
    .updateTable('workspace_settings')
    .set((eb) => ({ config_version: eb('config_version', '+', 1), updated_at: new Date().toISOString() }))
    .where('id', '=', 1)
    .execute();
}

async function storedRow(ctx: Context, number: number): Promise<StoredRow | undefined> {
  return (await ctx.db.selectFrom('boards').selectAll().where('number', '=', number).executeTakeFirst()) as StoredRow | undefined;
}

/** The board's settings page: only for those who may administer it (its projects are not all the member's to see). */
export async function getBoardSettings(ctx: Context, number: number): Promise<BoardSettings> {
  const board = await loadVisibleBoard(ctx, number);
  await requireBoardAdministration(ctx, board.all_projects ? 'all' : board.projects.map((p) => p.id), `administer board ${number}`);
  return settingsOf(ctx, board);
}

/** Whether the member in person may administer board `number` (the board page, read with read access, links to its settings). */
export async function mayAdministerBoard(ctx: Context, number: number): Promise<boolean> {
  const board = await loadVisibleBoard(ctx, number);
  return memberMayAdminister(ctx, board.all_projects ? 'all' : board.projects.map((p) => p.id));
}

/** Creates a board after the highest number, owned by the member who creates it. */
export async function createBoard(ctx: Context, input: BoardSettingsBody): Promise<BoardSettings> {
  const known = await vocabulary(ctx);
  // the projects are checked first: the first columns come from their workflows
  checkBoardConfig(configOf(input, [{ statuses: [] }]), known, refuseAsInput);
  const config = configOf(input, await columnsByCategory(ctx, configOf(input, []).projects));
  checkBoardConfig(config, known, refuseAsInput);
  await requireBoardAdministration(ctx, await projectIdsOf(ctx, config), 'create a board over these projects');
  // numbers are taken one creation at a time, whichever process creates
  await sql`lock table boards in share row exclusive mode`.execute(ctx.db);
  const { highest } = await ctx.db
    .selectFrom('boards')
    .select((eb) => eb.fn.max('number').as('highest'))
    .executeTakeFirstOrThrow();
  const number = Number(highest ?? 0) + 1;
  const writer = new Writer(ctx.db, new ChangeLog());
  const id = await writeBoardConfig(writer, undefined, number, config, { owner_id: ctx.actor.memberId });
  await bumpConfigVersion(ctx);
  const after = await settingsOf(ctx, (await findBoardRow(ctx.db, number))!);
  await audit(ctx, 'created', id, number, null, after);
  return after;
}

/** Changes a board: what the form holds replaces its name, kind, projects, columns and swimlanes. */
export async function updateBoard(ctx: Context, number: number, input: BoardSettingsBody): Promise<BoardSettings> {
  const board = await loadVisibleBoard(ctx, number);
  await requireBoardAdministration(ctx, board.all_projects ? 'all' : board.projects.map((p) => p.id), `change board ${number}`);
  const before = await settingsOf(ctx, (await findBoardRow(ctx.db, number))!);
  const config = configOf(input, before.columns);
  checkBoardConfig(config, await vocabulary(ctx), refuseAsInput);
  await requireBoardAdministration(ctx, await projectIdsOf(ctx, config), `make board ${number} draw from these projects`);
  if (config.kind === 'kanban' && board.kind === 'scrum') {
    const sprints = await ctx.db.selectFrom('sprints').select('id').where('board_id', '=', board.id).limit(1).execute();
    if (sprints.length) throw invalid('/kind', 'a board with sprints stays scrum; a kanban board has none');
  }
  const writer = new Writer(ctx.db, new ChangeLog());
  await writeBoardConfig(writer, await storedRow(ctx, number), number, config, {});
  if (!writer.log.changed) return before;
  await bumpConfigVersion(ctx);
  const after = await settingsOf(ctx, (await findBoardRow(ctx.db, number))!);
  await audit(ctx, 'updated', board.id, number, before, after);
  return after;
}

/** Deletes a board with its columns and sprints; its tickets stay in their projects. */
export async function deleteBoard(ctx: Context, number: number): Promise<DeletedBoard> {
  const board = await loadVisibleBoard(ctx, number);
  await requireBoardAdministration(ctx, board.all_projects ? 'all' : board.projects.map((p) => p.id), `delete board ${number}`);
  const before = await settingsOf(ctx, (await findBoardRow(ctx.db, number))!);
  await ctx.db.deleteFrom('boards').where('id', '=', board.id).execute();
  await bumpConfigVersion(ctx);
  await audit(ctx, 'deleted', board.id, number, before, null);
  return { deleted: { number, name: board.name } };
}
