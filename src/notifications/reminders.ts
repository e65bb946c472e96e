import { sql, type Kysely } from 'kysely';
import { writeNotifications } from '../core/notifications.ts';
import { recordVisibleSql } from '../core/visibility.ts';
import { visibilities } from '../modules/index.ts';
import type { DB } from '../storage/schema.ts';

interface Due {
  id: string;
  member_id: string;
  entity_type: string;
  entity_id: string;
  kind: string;
  payload: Record<string, unknown>;
  due_at: string;
}

/**
 * Fires the reminders due by `now` (an assigned follow-up reminds its assignee when it comes
 * due, ADR 0031): each becomes one notification — none if its member may not see its record
 * now — and is marked fired, in one transaction. Claimed with `for update skip locked`, so with
 * several nodes each reminder fires once; state lives in the database, so a reminder due while
 * every node was down fires at the next start.
 */
export async function fireDueReminders(db: Kysely<DB>, now: Date, mail: boolean): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<Due>`
      update reminders r set fired_at = ${now.toISOString()}::timestamptz
      where r.id in (
        select id from reminders where fired_at is null and due_at <= ${now.toISOString()}::timestamptz
        order by due_at limit 100 for update skip locked)
      returning r.id, r.member_id, r.entity_type, r.entity_id, r.kind, r.payload, r.due_at::text
    `.execute(trx);
    for (const reminder of rows) {
      await writeNotifications(
        trx,
        {
          memberIds: [reminder.member_id],
          entityType: reminder.entity_type,
          entityId: reminder.entity_id,
          kind: 'reminder',
          payload: { ...reminder.payload, reminder: reminder.kind, due_at: reminder.due_at },
          visibleTo: (member) => recordVisibleSql(visibilities, reminder.entity_type, member, sql<string>`${reminder.entity_id}::uuid`),
        },
        mail,
      );
    }
    return rows.length;
  });
}
