import type { Kysely } from 'kysely';
import { writeAudit, type AuditEntry } from '../core/audit.ts';
import type { DB, HistoryChange } from '../storage/schema.ts';

/** Shown as "via" beside changes made with the command line, where an API change shows its token. */
export const CLI_VIA = 'atrium CLI';

/** The workspace settings row has no uuid; its history is kept under this fixed id. */
export const WORKSPACE_ENTITY_ID = '00000000-0000-0000-0000-000000000001';

export async function recordCliChange(
  db: Kysely<DB>,
  entry: { entityType: string; entityId: string; kind: string; changes: HistoryChange[] },
): Promise<void> {
  await db
    .insertInto('history')
    .values({
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      kind: entry.kind,
      actor_id: null,
      via: CLI_VIA,
      changes: JSON.stringify(entry.changes),
    })
    .execute();
}

/** Every process re-reads cached workspace configuration when this number moves. */
export async function bumpConfigVersion(db: Kysely<DB>): Promise<void> {
  await db
    .updateTable('workspace_settings')
    .set((eb) => ({ config_version: eb('config_version', '+', 1), updated_at: new Date().toISOString() }))
    .where('id', '=', 1)
    .execute();
}

/** A workspace change made with the command line, in the audit log (spec 4.4): no member, `via` naming the CLI. */
export async function auditCliChange(db: Kysely<DB>, entry: AuditEntry): Promise<void> {
  await writeAudit(db, { actorId: null, via: CLI_VIA }, entry);
}
