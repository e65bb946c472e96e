import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB, HistoryChange } from '../storage/schema.ts';
import type { Context } from './context.ts';

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
  await writeHistory(ctx.db, { actorId: ctx.actor.memberId, via: ctx.agent.name }, entry);
}

/** A history entry for a change made outside the API (the workspace file, the command line), in the change's transaction. */
export async function writeHistory(db: Kysely<DB>, by: { actorId: string | null; via: string | null }, entry: HistoryEntry): Promise<void> {
  await historyInsert(by, entry, [entry]).execute(db);
}

/**
 * The insert of several history entries of one entity as one statement, for a request that sends
 * it with its other writes in one round trip (tickets/closing.ts). Like recordHistory's rows,
 * they share the transaction's time. `firstChange`: expressions of that statement that become the
 * `from` or `to` of each entry's first change, values only the statement knows (a new ticket's
 * key, which the statement numbering it gives; the rank a ticket had before the statement).
 */
export function historyInsert(
  by: { actorId: string | null; via: string | null },
  entity: { entityType: string; entityId: string },
  entries: readonly { kind: string; changes: HistoryChange[] }[],
  firstChange: { from?: RawBuilder<unknown>; to?: RawBuilder<unknown> } = {},
): RawBuilder<unknown> {
  const rows = JSON.stringify(entries.map((e) => ({ kind: e.kind, changes: e.changes })));
  let changes = sql`e.changes`;
  for (const side of ['from', 'to'] as const) {
    const value = firstChange[side];
    if (value) changes = sql`jsonb_set(${changes}, ${`{0,${side}}`}::text[], coalesce(to_jsonb(${value}), 'null'::jsonb))`;
  }
  return sql`
    insert into history (entity_type, entity_id, kind, actor_id, via, changes)
    select ${entity.entityType}, ${entity.entityId}::uuid, e.kind, ${by.actorId}::uuid, ${by.via}::text, ${changes}
    from jsonb_to_recordset(${rows}::jsonb) as e(kind text, changes jsonb)`;
}
