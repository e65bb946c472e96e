import { candidateList, normalizeKey, normalizeLabel, normalizeName } from '../../core/names.ts';
import type { StoredRow, Writer } from '../../workspace/writer.ts';
import type { BoardFilter, BoardKind, QuickFilter, Swimlanes } from './tables.ts';

/**
 * A board's configuration — name, kind, the projects it draws from, its columns and swimlanes —
 * as the workspace file declares it and the board's settings page sends it. Both are checked by
 * checkBoardConfig and written by writeBoardConfig: one rule, whichever door the change comes in by.
 */
export interface BoardConfig {
  name: string;
  kind: BoardKind;
  projects: 'all' | readonly string[];
  columns: readonly ColumnConfig[];
  /** Left out: as stored (`none` for a new board). */
  swimlanes?: Swimlanes | undefined;
  /** Left out: as stored (none for a new board). */
  quick_filters?: readonly QuickFilter[] | undefined;
  /** Left out: as stored (none for a new board); null: every ticket of its projects. */
  filter?: BoardFilter | null | undefined;
}

export interface ColumnConfig {
  name?: string | null | undefined;
  statuses: readonly string[];
  min?: number | null | undefined;
  max?: number | null | undefined;
}

/** Stops the change at a place in the configuration (`columns`, 1, `statuses`, 0), in the caller's notation. */
export type RefuseAt = (parts: readonly (string | number)[], reason: string) => never;

/** What a configuration may name: every status of a stored or declared workflow, every project key. */
export interface BoardVocabulary {
  statuses: readonly string[];
  ticketTypes: readonly string[];
  projectKeys: readonly string[];
}

export function checkBoardConfig(config: BoardConfig, known: BoardVocabulary, refuse: RefuseAt): void {
  if (config.name.trim() === '') refuse(['name'], 'must not be empty');
  if (config.projects !== 'all') {
    if (config.projects.length === 0) refuse(['projects'], 'name at least one project, or `all`');
    const seen = new Set<string>();
    config.projects.forEach((key, p) => {
      const normal = normalizeKey(key);
      if (!known.projectKeys.includes(normal))
        refuse(['projects', p], `no project "${key.trim()}"; projects are ${candidateList(key, [...known.projectKeys])}`);
      if (seen.has(normal)) refuse(['projects', p], `project ${normal} is named twice`);
      seen.add(normal);
    });
  }
  if (config.columns.length === 0) refuse(['columns'], 'a board has at least one column');
  const shownBy = new Map<string, number>();
  config.columns.forEach((column, c) => {
    column.statuses.forEach((status, s) => {
      const key = normalizeName(status);
      if (!known.statuses.some((k) => normalizeName(k) === key))
        refuse(['columns', c, 'statuses', s], `no status "${status.trim()}"; statuses are ${candidateList(status, [...known.statuses])}`);
      const earlier = shownBy.get(key);
      if (earlier !== undefined)
        refuse(
          ['columns', c, 'statuses', s],
          `status "${status.trim()}" is already shown by column ${earlier + 1}; a status belongs to one column`,
        );
      shownBy.set(key, c);
    });
    if (column.min != null && column.max != null && column.min > column.max) refuse(['columns', c, 'min'], 'is above max');
  });
  (config.filter?.types ?? []).forEach((type, t) => {
    if (!known.ticketTypes.some((k) => normalizeName(k) === normalizeName(type)))
      refuse(['filter', 'types', t], `no ticket type "${type.trim()}"; types are ${candidateList(type, [...known.ticketTypes])}`);
  });
  const names = new Set<string>();
  (config.quick_filters ?? []).forEach((quick, q) => {
    if (quick.name.trim() === '') refuse(['quick_filters', q, 'name'], 'must not be empty');
    if (names.has(normalizeName(quick.name))) refuse(['quick_filters', q, 'name'], `quick filter "${quick.name.trim()}" is named twice`);
    names.add(normalizeName(quick.name));
    if (!quick.assignee && !quick.label?.trim() && !quick.type?.trim())
      refuse(['quick_filters', q, 'name'], 'a quick filter needs an assignee, a label or a type to match');
  });
}

/** A filter as stored: labels as labels are named (spec 2.1), nothing given is null. */
function storedFilter(filter: BoardFilter | null): BoardFilter | null {
  const types = (filter?.types ?? []).map((t) => t.trim()).filter((t) => t !== '');
  const labels = (filter?.labels ?? []).map(normalizeLabel).filter((l) => l !== '');
  if (types.length === 0 && labels.length === 0) return null;
  return { ...(types.length ? { types } : {}), ...(labels.length ? { labels } : {}) };
}

const jsonOrNull = (value: object | null): string | null => (value === null ? null : JSON.stringify(value));

/** Quick filters as stored: names and words trimmed, criteria not given left out. */
function storedQuickFilters(filters: readonly QuickFilter[]): QuickFilter[] {
  return filters.map((quick) => ({
    name: quick.name.trim(),
    ...(quick.assignee ? { assignee: quick.assignee } : {}),
    ...(quick.label?.trim() ? { label: quick.label.trim() } : {}),
    ...(quick.type?.trim() ? { type: quick.type.trim() } : {}),
  }));
}

/** Columns other than the board's own row: the owner and retention, which only the workspace file sets. */
export interface BoardRowExtras {
  owner_id?: string | null | undefined;
  done_retention_days?: number | null | undefined;
}

/**
 * Writes a checked configuration: the board's row (inserted, or only its changed columns
 * updated), its projects in order, its columns by position (those past the last one removed).
 * What it wrote is in the writer's log; nothing unchanged is touched.
 */
export async function writeBoardConfig(
  writer: Writer,
  existing: StoredRow | undefined,
  number: number,
  config: BoardConfig,
  extras: BoardRowExtras,
): Promise<string> {
  const id = await writer.save('boards', existing, {
    number,
    name: config.name.trim(),
    kind: config.kind,
    all_projects: config.projects === 'all',
    swimlanes: config.swimlanes,
    filter: config.filter === undefined ? undefined : jsonOrNull(storedFilter(config.filter)),
    quick_filters: config.quick_filters === undefined ? undefined : JSON.stringify(storedQuickFilters(config.quick_filters)),
    ...extras,
  });
  await writeProjects(writer, id, config.projects);
  await writeColumns(writer, id, config.columns);
  return id;
}

async function writeProjects(writer: Writer, boardId: string, projects: BoardConfig['projects']): Promise<void> {
  const keys = projects === 'all' ? [] : projects.map(normalizeKey);
  const stored = await writer.db.selectFrom('projects').select(['id', 'key']).execute();
  const wanted = keys.map((key) => stored.find((p) => p.key.toUpperCase() === key)!.id);
  const current = await writer.db
    .selectFrom('board_projects')
    .select('project_id')
    .where('board_id', '=', boardId)
    .orderBy('position')
    .execute();
  if (current.map((r) => r.project_id).join() === wanted.join()) return;
  await writer.db.deleteFrom('board_projects').where('board_id', '=', boardId).execute();
  if (wanted.length) {
    await writer.db
      .insertInto('board_projects')
      .values(wanted.map((project_id, position) => ({ board_id: boardId, project_id, position })))
      .execute();
  }
  writer.log.note('board_projects', 'updated');
}

async function writeColumns(writer: Writer, boardId: string, columns: readonly ColumnConfig[]): Promise<void> {
  const stored = await writer.db.selectFrom('board_columns').selectAll().where('board_id', '=', boardId).execute();
  // columns past the new last one go first, so a shorter list never collides on (board, position)
  await writer.delete(
    'board_columns',
    stored.filter((c) => c.position >= columns.length).map((c) => c.id),
  );
  for (const [position, column] of columns.entries()) {
    const existing = stored.find((c) => c.position === position) as StoredRow | undefined;
    await writer.save('board_columns', existing, {
      board_id: boardId,
      position,
      name: column.name?.trim() || null,
      statuses: column.statuses.map((s) => s.trim()),
      min_tickets: column.min ?? null,
      max_tickets: column.max ?? null,
    });
  }
}
