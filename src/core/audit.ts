import type { Kysely } from 'kysely';
import type { DB, HistoryChange } from '../storage/schema.ts';

export interface AuditEntry {
  /** What was done, `<thing>.<verb>`: `request_type.created`, `request_types.reordered`, … */
  action: string;
  targetType: string;
  targetId: string | null;
  /** The target as people name it: `HELP request type wifi-access`. */
  target: string;
  projectId?: string | null;
  changes: HistoryChange[];
}

/** What recordAudit needs of a request's context (a structural type, so core's files do not import each other in a loop). */
export interface AuditingContext {
  db: Kysely<DB>;
  actor: { memberId: string };
  agent: { name: string | null };
}

/**
 * The one way a configuration change reaches the workspace audit log (spec 4.4): the member, the
 * token's name beside it (an application's name for an OAuth token, as history shows it), what
 * changed — in the request's transaction, so it commits or rolls back with the change.
 */
export async function recordAudit(ctx: AuditingContext, entry: AuditEntry): Promise<void> {
  await writeAudit(ctx.db, { actorId: ctx.actor.memberId, via: ctx.agent.name }, entry);
}

/**
 * An audit entry for a change made outside the API: the settings page (the administrator, no
 * agent) or the command line (no member, `via` naming it). Also in the change's transaction.
 */
export async function writeAudit(db: Kysely<DB>, by: { actorId: string | null; via: string | null }, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: by.actorId,
      via: by.via,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      target: entry.target,
      project_id: entry.projectId ?? null,
      changes: JSON.stringify(entry.changes),
    })
    .execute();
}
