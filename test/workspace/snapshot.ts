import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/storage/schema.ts';

/** Every table the workspace file writes. */
export const WORKSPACE_TABLES = [
  'workspace_settings',
  'members',
  'groups',
  'group_members',
  'roles',
  'workflows',
  'statuses',
  'transitions',
  'projects',
  'ticket_types',
  'priorities',
  'resolutions',
  'components',
  'versions',
  'labels',
  'security_levels',
  'security_level_grants',
  'custom_fields',
  'project_roles',
  'spaces',
  'space_grants',
  'pages',
  'page_versions',
  'page_restrictions',
  'page_links',
  'organizations',
  'contracts',
  'phases',
  'activities',
] as const;

/** Every row of every workspace table, in a stable order, as text: equal snapshots mean nothing changed. */
export async function snapshotWorkspace(db: Kysely<DB>): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const table of WORKSPACE_TABLES) {
    const result = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(table)} t`.execute(db);
    snapshot[table] = result.rows.map((r) => r.row).sort();
  }
  return snapshot;
}
