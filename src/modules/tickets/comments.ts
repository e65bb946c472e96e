import type { Context } from '../../core/context.ts';
import { loadVisibleTicket } from './load.ts';
import { closeTicketChangeQuietly } from './closing.ts';
import { requireTicketAction } from './policy.ts';
import { presentComment, type CommentRow } from './present.ts';
import type { Comment, CommentBody } from './schemas.ts';

/** Writes a Markdown comment made now (spec 4.2: a comment's time is when it was made); returns its id. */
export async function insertComment(ctx: Context, ticketId: string, body: string, internal: boolean): Promise<string> {
  return (await writeComment(ctx, ticketId, body, internal)).id;
}

/** insertComment returning the comment as its answer shows it, from the insert itself. */
async function writeComment(ctx: Context, ticketId: string, body: string, internal: boolean): Promise<CommentRow> {
  const row = await ctx.db
    .insertInto('comments')
    .values({
      ticket_id: ticketId,
      author_id: ctx.actor.memberId,
      body_format: 'markdown',
      body_text: body,
      visibility: internal ? 'internal' : 'public',
      restricted_role_id: null,
      restricted_group_id: null,
      edited_at: null,
    })
    .returning(['id', 'author_id', 'body_format', 'body_text', 'visibility', 'created_at', 'edited_at'])
    .executeTakeFirstOrThrow();
  // the author is the member making the request: their name as read with the request's token
  return { ...row, author_name: ctx.actor.name };
}

/** POST /tickets/{key}/comments: `internal` makes a helpdesk internal note; `@username` notifies that person. */
export async function addComment(ctx: Context, key: string, input: CommentBody): Promise<Comment> {
  // not locked when read: a comment changes nothing it read, and the closing statement's update
  // locks the row only for itself and the commit, so comments on one ticket overlap until then
  const ticket = await loadVisibleTicket(ctx, key);
  await requireTicketAction(ctx, 'comment', ticket);
  const internal = input.internal ?? false;
  const comment = await writeComment(ctx, ticket.id, input.body, internal);
  await closeTicketChangeQuietly(ctx, ticket, {
    comment: comment.id,
    history: [{ kind: 'commented', changes: [{ field: 'comment', from: null, to: { id: comment.id, visibility: internal ? 'internal' : 'public' } }] }],
    announcement: { kind: 'commented', payload: { comment_id: comment.id, body: input.body, internal }, markdown: input.body },
  });
  return presentComment(comment);
}
