import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { MemberSql } from '../policy/ability.ts';
import type { DB } from '../storage/schema.ts';

/** One notification to several members: the change, on what, and what a page or an email says of it. */
export interface NotificationEntry {
  memberIds: readonly string[];
  entityType: string;
  entityId: string;
  /** `created`, `updated`, `commented`, `assigned`, `mentioned`, `reminder`, … */
  kind: string;
  payload: Record<string, unknown>;
  /**
   * SQL: the member may see the record now (its module's RecordVisibility, core/visibility.ts):
   * a recipient who may not is told nothing.
   */
  visibleTo: (member: MemberSql) => RawBuilder<boolean>;
}

/**
 * The one way a notification is written (spec 6), in the change's transaction: one row per
 * recipient, queued for email when delivery is configured (`mail`) and the member has not turned
 * email off. The delivery worker (notifications/mail-worker.ts) sends what is queued.
 */
export async function writeNotifications(db: Kysely<DB>, entry: NotificationEntry, mail: boolean): Promise<void> {
  if (entry.memberIds.length === 0) return;
  const { memberIds, ...rest } = entry;
  await notificationsInsert({ ...rest, recipients: sql`select unnest(${[...memberIds]}::uuid[])` }, mail).execute(db);
}

/**
 * The insert writeNotifications makes, to the active members among those `recipients` selects
 * (a query of member ids) who may see the record, as one statement a request may send with its
 * other writes. The payload may be a jsonb expression of that statement (a new ticket's key,
 * numbered by it).
 */
export function notificationsInsert(
  entry: Omit<NotificationEntry, 'memberIds' | 'payload'> & {
    recipients: RawBuilder<unknown>;
    payload: Record<string, unknown> | RawBuilder<unknown>;
  },
  mail: boolean,
): RawBuilder<unknown> {
  const payload = 'isRawBuilder' in entry.payload ? entry.payload : sql`${JSON.stringify(entry.payload)}::jsonb`;
  return sql`
    insert into notifications (member_id, entity_type, entity_id, kind, payload, email_state)
    select m.id, ${entry.entityType}, ${entry.entityId}::uuid, ${entry.kind}, ${payload},
      case when ${mail} and m.email_notifications and m.email is not null then 'queued' else 'none' end
    from members m where m.id in (${entry.recipients}) and m.active and ${entry.visibleTo(sql.ref('m.id'))}`;
}

export interface ReminderEntry {
  memberId: string;
  entityType: string;
  entityId: string;
  /** What it reminds of (`follow_up`); its notification says so. */
  kind: string;
  /** What the notification shows: `subject`, and `path` (the page of the record, from the service's root). */
  payload: Record<string, unknown>;
  /** ISO 8601 time it fires at. */
  dueAt: string;
}

/** Records a reminder, fired once at its time by the scheduler (notifications/reminders.ts), in the caller's transaction. */
export async function scheduleReminder(db: Kysely<DB>, entry: ReminderEntry): Promise<void> {
  await db
    .insertInto('reminders')
    .values({
      member_id: entry.memberId,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      kind: entry.kind,
      payload: JSON.stringify(entry.payload),
      due_at: entry.dueAt,
    })
    .execute();
}

/** Drops a record's reminders that have not fired (a follow-up completed before it came due). */
export async function cancelReminders(db: Kysely<DB>, entityType: string, entityId: string): Promise<void> {
  await db
    .deleteFrom('reminders')
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', entityId)
    .where('fired_at', 'is', null)
    .execute();
}
