import type { Context } from './context.ts';
import type { HistoryChange } from '../storage/schema.ts';

export interface HistoryEntry {
  entityType: string;
  entityId: string;
  /** What happened: `created`, `updated`, `fields`, `transitioned`, `commented`, … */
  kind: string;
  changes: HistoryChange[];
}

/**
 * The one way a change is recorded (spec 1, 6): under the member's name with the token's name
 * beside it, in the request's transaction so it commits or rolls back with the change.
 */
export async function recordHistory(ctx: Pick<Context, 'db' | 'actor' | 'agent'>, entry: HistoryEntry): Promise<void> {
  await ctx.db
    .insertInto('history')
    .values({
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      kind: entry.kind,
      actor_id: ctx.actor.memberId,
      via: ctx.agent.name,
      changes: JSON.stringify(entry.changes),
    })
    .execute();
}
