import { Type, type Static } from 'typebox';
import type { Context } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { defineOperation } from '../../core/operation.ts';
import { countUnread, markAllRead, markRead, setEmailWanted } from '../../notifications/inbox.ts';

/** What is left unread after marking: the header's count. */
export const UnreadCount = Type.Object({ unread: Type.Integer({ minimum: 0 }) });
export type UnreadCount = Static<typeof UnreadCount>;

const NotificationParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Whether each notification also comes by email: the member's choice on their notifications page. */
export const EmailNotifications = Type.Object({
  email: Type.Boolean({ description: 'also send each notification by email' }),
});
export type EmailNotifications = Static<typeof EmailNotifications>;

async function markOne(ctx: Context, id: string): Promise<UnreadCount> {
  // another member's notification is no more there than one that never was
  if (!(await markRead(ctx.db, ctx.actor.memberId, id, ctx.now()))) throw notFound('Notification');
  return { unread: await countUnread(ctx.db, ctx.actor.memberId) };
}

// The member's notifications are read on their page (spec 6): web-only, never a route or a tool.

export const markNotificationReadOperation = defineOperation({
  name: 'mark_notification_read',
  doors: 'web',
  module: 'core',
  access: 'write',
  summary: 'Mark a notification read',
  description: 'Marks one of the member’s own notifications read; one already read stays so. Another member’s is not found.',
  params: NotificationParams,
  response: UnreadCount,
  errors: ['not_found'],
  handler: (ctx, input) => markOne(ctx, input.id),
});

export const markAllNotificationsReadOperation = defineOperation({
  name: 'mark_all_notifications_read',
  doors: 'web',
  module: 'core',
  access: 'write',
  summary: 'Mark every notification read',
  description: 'Marks all of the member’s unread notifications read.',
  response: UnreadCount,
  handler: async (ctx) => {
    await markAllRead(ctx.db, ctx.actor.memberId, ctx.now());
    return { unread: 0 };
  },
});

export const setEmailNotificationsOperation = defineOperation({
  name: 'set_email_notifications',
  doors: 'web',
  module: 'core',
  access: 'write',
  summary: 'Email my notifications, or stop',
  description: 'Whether each of the member’s notifications is also sent to them by email. Turned off, what is still queued is not sent.',
  body: EmailNotifications,
  response: EmailNotifications,
  handler: async (ctx, input) => {
    await setEmailWanted(ctx.db, ctx.actor.memberId, input.email);
    return { email: input.email };
  },
});
