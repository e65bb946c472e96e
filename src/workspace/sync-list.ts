import { normalizeName } from '../core/names.ts';
import type { ApplyContext } from './context.ts';
import type { StoredRow, WorkspaceTable } from './writer.ts';

export type ProjectListTable =
  | 'ticket_types'
  | 'priorities'
  | 'resolutions'
  | 'components'
  | 'versions'
  | 'labels'
  | 'security_levels'
  | 'custom_fields';

export interface ListSpec {
  table: ProjectListTable;
  /** What one item is called in messages: `ticket type`. */
  what: string;
  /** Where the list is in the file, for a message about an item it no longer holds. */
  path: string;
  /** `key` for custom fields, `name` for the rest. */
  keyColumn?: 'name' | 'key';
  /** Items left out of the file: deleted (unless still used), archived, or kept as they are. */
  unlisted: 'delete' | 'archive' | 'keep';
  /** Whether the table keeps the file's order in a `position` column. */
  positioned?: boolean;
}

/**
 * Makes one of a project's lists what the file states, matching items by name so their ids stay.
 * Returns each item's id by normalized name.
 */
export async function syncProjectList(
  ctx: ApplyContext,
  projectId: string,
  spec: ListSpec,
  items: readonly Record<string, unknown>[],
): Promise<Map<string, string>> {
  const keyColumn = spec.keyColumn ?? 'name';
  const table: WorkspaceTable = spec.table;
  const stored = (await ctx.db.selectFrom(spec.table).selectAll().where('project_id', '=', projectId).execute()) as unknown as StoredRow[];
  const ids = new Map<string, string>();
  for (const [position, item] of items.entries()) {
    const key = normalizeName(String(item[keyColumn]));
    const current = stored.find((row) => normalizeName(String(row[keyColumn])) === key);
    const wanted = { project_id: projectId, ...item, ...(spec.positioned === false ? {} : { position }) };
    ids.set(key, await ctx.writer.save(table, current, wanted));
  }
  const kept = new Set(ids.values());
  const unlisted = stored.filter((row) => !kept.has(row.id));
  if (spec.unlisted === 'archive') {
    for (const row of unlisted) await ctx.writer.save(table, row, { archived: true });
  } else if (spec.unlisted === 'delete') {
    await ctx.writer.deleteUnreferenced(
      table,
      unlisted.map((row) => ({ id: row.id, name: String(row[keyColumn]) })),
      spec.path,
      spec.what,
    );
  }
  return ids;
}
