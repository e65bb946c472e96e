import type { HistoryChange } from '../storage/schema.ts';
import type { Context } from './context.ts';

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

/**
 * The one way a configuration change reaches the workspace audit log (spec 4.4): the member, the
 * token's name beside it (an application's name for an OAuth token, as history shows it), what
 * changed — in the request's transaction, so it commits or rolls back with the change.
 */
export async function recordAudit(ctx: Pick<Context, 'db' | 'actor' | 'agent'>, entry: AuditEntry): Promise<void> {
  await ctx.db
    .insertInto('audit_log')
    .values({
      actor_id: ctx.actor.memberId,
      via: ctx.agent.name,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      target: entry.target,
      project_id: entry.projectId ?? null,
      changes: JSON.stringify(entry.changes),
    })
    .execute();
}
