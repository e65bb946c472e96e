import { sql, type Kysely, type RawBuilder } from 'kysely';
import { recordVisibleSql } from '../core/visibility.ts';
import type { MemberSql } from '../policy/ability.ts';
import { visibilities } from '../modules/index.ts';
import type { DB } from '../storage/schema.ts';
import { describeNotification, type NotificationText } from './describe.ts';

/** How many of a member's notifications the page shows: unread first, then the newest read. */
export const INBOX_SIZE = 100;

export interface InboxEntry extends NotificationText {
  id: string;
  createdAt: string;
  read: boolean;
  /** For an email that could not be sent: why (a member sees what failed, spec 6). */
  emailError: string | null;
}

/**
 * SQL: notification `n` is about a record its member may see now. What was written for a member
 * who has since lost access to its record is no longer shown, counted or sent (core/visibility.ts).
 */
export function shownSql(member: MemberSql = sql.ref('n.member_id')): RawBuilder<boolean> {
  return recordVisibleSql(visibilities, sql.ref('n.entity_type'), member, sql.ref('n.entity_id'));
}

/**
 * SQL: how many unread notifications the member has that the page shows (shownSql's rule). Each
 * record's visibility is asked once, however many notifications are about it.
 */
export function unreadCountSql(member: MemberSql): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(u.unread), 0)::integer from (
      select n.entity_type, n.entity_id, count(*) as unread from notifications n
      where n.member_id = ${member} and n.read_at is null group by n.entity_type, n.entity_id offset 0) u
    where ${recordVisibleSql(visibilities, sql.ref('u.entity_type'), member, sql.ref('u.entity_id'))})`;
}

/** A member's notifications as their page lists them. */
export async function inbox(db: Kysely<DB>, memberId: string, publicUrl: string): Promise<InboxEntry[]> {
  const rows = await db
    .selectFrom('notifications as n')
    .select(['id', 'kind', 'entity_type', 'payload', 'created_at', 'read_at', 'email_state', 'email_error'])
    .where('member_id', '=', memberId)
    .where(shownSql(memberId))
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

/** The header's count after a change: unreadCountSql's rule, so it never counts what the page hides. */
export async function countUnread(db: Kysely<DB>, memberId: string): Promise<number> {
  const { rows } = await sql<{ unread: number }>`select ${unreadCountSql(memberId)} as unread`.execute(db);
  return Number(rows[0]?.unread ?? 0);
}

export async function markAllRead(db: Kysely<DB>, memberId: string, now: Date): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: now.toISOString() })
    .where('member_id', '=', memberId)
    .where('read_at', 'is', null)
    .execute();
}

export async function emailWanted(db: Kysely<DB>, memberId: string): Promise<boolean> {
  const row = await db.selectFrom('members').select('email_notifications').where('id', '=', memberId).executeTakeFirstOrThrow();
  return row.email_notifications;
}

/**
 * A member turns email off (what is still queued for them is not sent either) or on again (for
 * what comes next). Two statements: run in the caller's transaction (the operation's).
 */
export async function setEmailWanted(db: Kysely<DB>, memberId: string, wanted: boolean): Promise<void> {
  await db.updateTable('members').set({ email_notifications: wanted }).where('id', '=', memberId).execute();
  if (!wanted) {
    await db
      .updateTable('notifications')
      .set({ email_state: 'none', email_next_at: null })
      .where('member_id', '=', memberId)
      .where('email_state', '=', 'queued')
      .execute();
  }
}
