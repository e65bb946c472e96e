import type { Context } from '../../core/context.ts';
import { loadVisibleTicket } from './load.ts';
import { addWatcher } from './repo.ts';

/**
 * Whether the member watches a ticket they can see (spec 6: watchers are told of every change).
 * Watching is the member's own subscription, not a change of the ticket: no history, no
 * notification, and a read-only browser session may do it. A ticket they cannot see is 404.
 */
export async function isWatching(ctx: Context, key: string): Promise<boolean> {
  const ticket = await loadVisibleTicket(ctx, key);
  const row = await ctx.db
    .selectFrom('ticket_watchers')
    .select('member_id')
    .where('ticket_id', '=', ticket.id)
    .where('member_id', '=', ctx.actor.memberId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Starts or stops the member's watching; answers the ticket's key as it is spelt. */
export async function setWatching(ctx: Context, key: string, watching: boolean): Promise<string> {
  const ticket = await loadVisibleTicket(ctx, key);
  if (watching) {
    await addWatcher(ctx.db, ticket.id, ctx.actor.memberId);
  } else {
    await ctx.db.deleteFrom('ticket_watchers').where('ticket_id', '=', ticket.id).where('member_id', '=', ctx.actor.memberId).execute();
  }
  return ticket.key;
}
