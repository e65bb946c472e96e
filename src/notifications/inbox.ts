import type { Kysely } from 'kysely';
import type { DB } from '../storage/schema.ts';
import { describeNotification, type NotificationText } from './describe.ts';

/** How many of a member's notifications the page shows: unread first, then the newest read. */
export const INBOX_SIZE = 100;

export interface InboxEntry extends NotificationText {
  id: string;
  createdAt: string;
  read: boolean;
  /** For an email that could not be sent: why (a member sees what failed, spec 6 and issue 17). */
  emailError: string | null;
}

/** A member's notifications as their page lists them. */
export async function inbox(db: Kysely<DB>, memberId: string, publicUrl: string): Promise<InboxEntry[]> {
  const rows = await db
    .selectFrom('notifications')
    .select(['id', 'kind', 'entity_type', 'payload', 'created_at', 'read_at', 'email_state', 'email_error'])
    .where('member_id', '=', memberId)
    .orderBy((eb) => eb('read_at', 'is', null), 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(INBOX_SIZE)
    .execute();
  return rows.map((row) => ({
    ...describeNotification(row, publicUrl),
    id: row.id,
    createdAt: row.created_at,
    read: row.read_at !== null,
    emailError: row.email_state === 'failed' ? row.email_error : null,
  }));
}

/**
 * Marks one notification of the member read; false when the member has none with this id (another
 * member's id changes nothing). One already read stays as it was.
 */
export async function markRead(db: Kysely<DB>, memberId: string, id: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('notifications')
    .set((eb) => ({ read_at: eb.fn.coalesce('read_at', eb.val(now.toISOString())) }))
    .where('member_id', '=', memberId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUnread(db: Kysely<DB>, memberId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('member_id', '=', memberId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function markAllRead(db: Kysely<DB>, memberId: string, now: Date): Promise<void> {
  await db.updateTable('notifications').set({ read_at: now.toISOString() }).where('member_id', '=', memberId).where('read_at', 'is', null).execute();
}

export async function emailWanted(db: Kysely<DB>, memberId: string): Promise<boolean> {
  const row = await db.selectFrom('members').select('email_notifications').where('id', '=', memberId).executeTakeFirstOrThrow();
  return row.email_notifications;
}

/** A member turns email off (what is still queued for them is not sent either) or on again (for what comes next). */
export async function setEmailWanted(db: Kysely<DB>, memberId: string, wanted: boolean): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('members').set({ email_notifications: wanted }).where('id', '=', memberId).execute();
    if (!wanted) {
      await trx.updateTable('notifications').set({ email_state: 'none', email_next_at: null }).where('member_id', '=', memberId).where('email_state', '=', 'queued').execute();
    }
  });
}
