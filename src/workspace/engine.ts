import { sql, type Kysely } from 'kysely';
import type { TObject } from 'typebox';
import type { Hooks } from '../core/hooks.ts';
import { normalizeName } from '../core/names.ts';
import type { DB } from '../storage/schema.ts';
import { ChangeLog, type TableChanges } from './changes.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from './context.ts';
import { loadExistingWorkspace } from './existing.ts';
import { People } from './people.ts';
import { workspaceFileSchema, type WorkspaceFile } from './schema.ts';
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

/** What applies a file: every section in order (the platform's, then the modules'), and the modules' hooks. */
export class WorkspaceEngine {
  readonly schema: TObject;
  readonly sections: readonly WorkspaceSectionHandler[];
  readonly hooks: Hooks;

  constructor(sections: readonly WorkspaceSectionHandler[], hooks: Hooks) {
    this.sections = sections;
    this.hooks = hooks;
    this.schema = workspaceFileSchema(sections);
    const names = new Set<string>();
    for (const section of sections) {
      if (names.has(section.name)) throw new Error(`workspace section ${section.name} declared twice`);
      names.add(section.name);
    }
  }

  /**
   * Applies a parsed workspace file (see docs/workspace-file.md): the whole file is checked first —
   * its shape, then every name it uses — and a mistake throws WorkspaceFileError naming its path;
   * then every section is written in one transaction (the caller's, if `db` already is one).
   * Applying the same file again writes nothing.
   */
  async apply(db: Kysely<DB>, file: unknown): Promise<ApplyReport> {
    if (db.isTransaction) return this.applyChecked(db, file);
    return db.transaction().execute((trx) => this.applyChecked(trx, file));
  }

  private async checkAll(db: Kysely<DB>, file: WorkspaceFile): Promise<CheckContext> {
    const existing = await loadExistingWorkspace(db);
    const ctx: CheckContext = {
      db,
      file,
      hooks: this.hooks,
      existing,
      memberPlans: [],
      people: new People([]),
      groups: existing.groups,
      roles: existing.roles,
      workflows: new Map(existing.workflows.map((w) => [normalizeName(w.name), { ...w, declared: null }])),
    };
    for (const section of this.sections) await section.check(ctx);
    return ctx;
  }

  private async applyChecked(db: Kysely<DB>, file: unknown): Promise<ApplyReport> {
    const valid = validateWorkspaceFile(this.schema, file);
    await sql`select pg_advisory_xact_lock(${APPLY_LOCK})`.execute(db);
    const checked = await this.checkAll(db, valid);
    const log = new ChangeLog();
    const ctx: ApplyContext = {
      db,
      file: valid,
      hooks: this.hooks,
      writer: new Writer(db, log),
      checked,
      people: checked.people,
      groupIds: new Map(),
      roleIds: new Map(),
      workflows: new Map(),
    };
    for (const section of this.sections) await section.apply(ctx);
    if (log.changed) {
      await db
        .updateTable('workspace_settings')
        .set((eb) => ({ config_version: eb('config_version', '+', 1), updated_at: new Date().toISOString() }))
        .where('id', '=', 1)
        .execute();
    }
    const { config_version } = await db
      .selectFrom('workspace_settings')
      .select('config_version')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    return { changed: log.changed, configVersion: Number(config_version), changes: log.list() };
  }
}

// Any fixed number: two applies (a CLI and a server, or two CLIs) never interleave.
const APPLY_LOCK = 7_245_002;
