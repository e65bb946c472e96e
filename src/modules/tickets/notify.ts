import type { Context } from '../../core/context.ts';
import { writeNotifications } from '../../core/notifications.ts';
import { mentionedUsernames } from '../../core/rich-text.ts';
import { membersByUsername } from './people.ts';
import { watcherIds } from './repo.ts';

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
 * per change; a mentioned person's row says so.
 */
export async function announce(ctx: Context, announcement: Announcement): Promise<void> {
  const mentioned = new Set(announcement.markdown ? await membersByUsername(ctx, mentionedUsernames(announcement.markdown)) : []);
  // the member made the change (through any of their agents): they are told nothing about it
  mentioned.delete(ctx.actor.memberId);
  const watchers = (await watcherIds(ctx.db, announcement.ticket.id)).filter((id) => id !== ctx.actor.memberId && !mentioned.has(id));
  const payload = { key: announcement.ticket.key, by: { id: ctx.actor.memberId, name: ctx.actor.name }, via: ctx.agent.name, ...announcement.payload };
  const about = { entityType: 'ticket', entityId: announcement.ticket.id };
  await writeNotifications(ctx.db, { ...about, memberIds: watchers, kind: announcement.kind, payload }, ctx.mail);
  await writeNotifications(ctx.db, { ...about, memberIds: [...mentioned], kind: 'mentioned', payload: { ...payload, event: announcement.kind } }, ctx.mail);
}
