import { sql, type Kysely } from 'kysely';
import { normalizeName } from '../core/names.ts';
import type { DB } from '../storage/schema.ts';
import { ChangeLog, type TableChanges } from './changes.ts';
import type { ApplyContext, CheckContext } from './context.ts';
import { loadExistingWorkspace } from './existing.ts';
import { People } from './people.ts';
import { SECTIONS } from './sections.ts';
import { validateWorkspaceFile } from './validate-file.ts';
import { Writer } from './writer.ts';

export interface ApplyReport {
  /** Whether anything was written; applying an unchanged file writes nothing. */
  changed: boolean;
  /** workspace_settings.config_version after the apply (bumped once when something changed). */
  configVersion: number;
  /** Rows created, updated and deleted per table. */
  changes: TableChanges[];
}

// Any fixed number: two applies (a CLI and a server, or two CLIs) never interleave.
const APPLY_LOCK = 7_245_002;

async function checkAll(db: Kysely<DB>, file: ReturnType<typeof validateWorkspaceFile>): Promise<CheckContext> {
  const existing = await loadExistingWorkspace(db);
  const ctx: CheckContext = {
    db,
    file,
    existing,
    memberPlans: [],
    people: new People([]),
    groups: existing.groups,
    roles: existing.roles,
    workflows: new Map(existing.workflows.map((w) => [normalizeName(w.name), { ...w, declared: null }])),
  };
  for (const section of SECTIONS) await section.check(ctx);
  return ctx;
}

async function applyChecked(db: Kysely<DB>, file: unknown): Promise<ApplyReport> {
  const valid = validateWorkspaceFile(file);
  await sql`select pg_advisory_xact_lock(${APPLY_LOCK})`.execute(db);
  const checked = await checkAll(db, valid);
  const log = new ChangeLog();
  const ctx: ApplyContext = {
    db,
    file: valid,
    writer: new Writer(db, log),
    checked,
    people: checked.people,
    groupIds: new Map(),
    roleIds: new Map(),
    workflows: new Map(),
  };
  for (const section of SECTIONS) await section.apply(ctx);
  if (log.changed) {
    await db
      .updateTable('workspace_settings')
      .set((eb) => ({ config_version: eb('config_version', '+', 1), updated_at: new Date().toISOString() }))
      .where('id', '=', 1)
      .execute();
  }
  const { config_version } = await db.selectFrom('workspace_settings').select('config_version').where('id', '=', 1).executeTakeFirstOrThrow();
  return { changed: log.changed, configVersion: Number(config_version), changes: log.list() };
}

/**
 * Applies a parsed workspace file (see docs/workspace-file.md): the whole file is checked first —
 * its shape, then every name it uses — and a mistake throws WorkspaceFileError naming its path;
 * then every section is written in one transaction (the caller's, if `db` already is one).
 * Applying the same file again writes nothing.
 */
export async function applyWorkspace(db: Kysely<DB>, file: unknown): Promise<ApplyReport> {
  if (db.isTransaction) return applyChecked(db, file);
  return db.transaction().execute((trx) => applyChecked(trx, file));
}
