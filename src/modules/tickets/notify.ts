import type { Context } from '../../core/context.ts';
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
  const recipients = new Set([...(await watcherIds(ctx.db, announcement.ticket.id)), ...mentioned]);
  recipients.delete(ctx.actor.memberId);
  if (recipients.size === 0) return;
  const payload = { key: announcement.ticket.key, by: { id: ctx.actor.memberId, name: ctx.actor.name }, via: ctx.agent.name, ...announcement.payload };
  await ctx.db
    .insertInto('notifications')
    .values(
      [...recipients].map((memberId) => ({
        member_id: memberId,
        entity_type: 'ticket',
        entity_id: announcement.ticket.id,
        kind: mentioned.has(memberId) ? 'mentioned' : announcement.kind,
        payload: JSON.stringify(mentioned.has(memberId) ? { ...payload, event: announcement.kind } : payload),
      })),
    )
    .execute();
}
