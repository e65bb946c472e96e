import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { recordHistory } from '../../core/history.ts';
import { loadVisibleTicket } from './load.ts';
import { announce } from './notify.ts';
import { requireTicketAction } from './policy.ts';
import { presentComment, type CommentRow } from './present.ts';
import { touchTicket } from './repo.ts';
import type { Comment, CommentBody } from './schemas.ts';

/** Writes a Markdown comment made now (spec 4.2: a comment's time is when it was made). */
export async function insertComment(ctx: Context, ticketId: string, body: string, internal: boolean): Promise<string> {
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
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function presentCommentById(ctx: Context, commentId: string): Promise<Comment> {
  const result = await sql<CommentRow>`
    select c.id, c.author_id, m.display_name as author_name, c.body_format, c.body_text, c.visibility, c.created_at, c.edited_at
    from comments c left join members m on m.id = c.author_id where c.id = ${commentId}
  `.execute(ctx.db);
  return presentComment(result.rows[0]!);
}

/** POST /tickets/{key}/comments: `internal` makes a helpdesk internal note; `@username` notifies that person. */
export async function addComment(ctx: Context, key: string, input: CommentBody): Promise<Comment> {
  const ticket = await loadVisibleTicket(ctx, key, true);
  await requireTicketAction(ctx, 'comment', ticket);
  const internal = input.internal ?? false;
  const commentId = await insertComment(ctx, ticket.id, input.body, internal);
  await touchTicket(ctx.db, ticket.id);
  await recordHistory(ctx, {
    entityType: 'ticket',
    entityId: ticket.id,
    kind: 'commented',
    changes: [{ field: 'comment', from: null, to: { id: commentId, visibility: internal ? 'internal' : 'public' } }],
  });
  await announce(ctx, { ticket, kind: 'commented', payload: { comment_id: commentId, body: input.body, internal }, markdown: input.body });
  return presentCommentById(ctx, commentId);
}
