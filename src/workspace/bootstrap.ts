import fs from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../storage/migrate.ts';
import type { DB } from '../storage/schema.ts';
import { applyWorkspace } from './apply.ts';
import { parseWorkspaceYaml } from './parse.ts';

export const DEMO_WORKSPACE_FILE = new URL('../../examples/demo-workspace.yaml', import.meta.url);

// Any fixed number: serializes the creation of a new workspace between processes on PostgreSQL.
const BOOTSTRAP_LOCK = 7_245_001;

export interface PrepareOptions {
  /** Apply the demo workspace when this call creates the workspace (ATRIUM_DEMO, on by default). */
  demo: boolean;
  /** Applied instead of the demo workspace when this call creates the workspace (tests). */
  initialWorkspace?: unknown;
}

/**
 * Brings a database up to date and, the first time, creates the workspace: settings with the
 * REST API and MCP server off (spec 1), then the demo workspace unless switched off. Whichever
 * process opens a new database first does it, in one transaction.
 */
export async function prepareWorkspace(db: Kysely<DB>, options: PrepareOptions): Promise<{ created: boolean }> {
  await migrateToLatest(db);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`.execute(trx);
    const existing = await trx.selectFrom('workspace_settings').select('id').executeTakeFirst();
    if (existing) return { created: false };
    await trx.insertInto('workspace_settings').values({ id: 1, default_priority: null }).execute();
    if (options.initialWorkspace !== undefined) {
      await applyWorkspace(trx, options.initialWorkspace);
    } else if (options.demo) {
      const text = await fs.readFile(DEMO_WORKSPACE_FILE, 'utf8');
      await applyWorkspace(trx, parseWorkspaceYaml(text, 'examples/demo-workspace.yaml'));
    }
    return { created: true };
  });
}
