import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { notificationsInsert } from '../../core/notifications.ts';
import { mentionedUsernames } from '../../core/rich-text.ts';
import { membersByUsername } from './people.ts';

export interface Announcement {
  ticket: { id: string; key: string };
  /** `created`, `updated`, `transitioned`, `assigned`, `commented`, `worklog`. */
  kind: string;
  payload: Record<string, unknown>;
  /** Markdown whose `@username` mentions notify those members too. */
  markdown?: string | null;
}

/**
 * Spec 6: a change is announced to the ticket's watchers except the member, in the same
 * transaction (the notifications table is the outbox a mailer reads). Each person gets one row
 * per change; a mentioned person's row says so. Returns the inserts, for the caller to send with
 * its other writes: the watchers are read by the insert itself, as the statement finds them.
 * Looks up the mentioned members first (a round trip only when the text mentions someone).
 */
export async function announcementInserts(ctx: Context, announcement: Announcement): Promise<RawBuilder<unknown>[]> {
  const mentioned = new Set(announcement.markdown ? await membersByUsername(ctx, mentionedUsernames(announcement.markdown)) : []);
  // the member made the change (through any of their agents): they are told nothing about it
  mentioned.delete(ctx.actor.memberId);
  const payload = { key: announcement.ticket.key, by: { id: ctx.actor.memberId, name: ctx.actor.name }, via: ctx.agent.name, ...announcement.payload };
  const about = { entityType: 'ticket', entityId: announcement.ticket.id };
  const told = [ctx.actor.memberId, ...mentioned];
  const watchers = sql`select member_id from ticket_watchers where ticket_id = ${announcement.ticket.id}::uuid and member_id <> all(${told}::uuid[])`;
  const inserts = [notificationsInsert({ ...about, recipients: watchers, kind: announcement.kind, payload }, ctx.mail)];
  if (mentioned.size) {
    const recipients = sql`select unnest(${[...mentioned]}::uuid[])`;
    inserts.push(notificationsInsert({ ...about, recipients, kind: 'mentioned', payload: { ...payload, event: announcement.kind } }, ctx.mail));
  }
  return inserts;
}

/** Writes an announcement (announcementInserts) in one round trip of its own. */
export async function announce(ctx: Context, announcement: Announcement): Promise<void> {
  const [watchers, mentions] = await announcementInserts(ctx, announcement);
  await (mentions ? sql`with mentions as (${mentions}) ${watchers!}` : watchers!).execute(ctx.db);
}
