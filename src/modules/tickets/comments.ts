import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { loadVisibleTicket } from './load.ts';
import { closeTicketChangeWithComment } from './closing.ts';
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

/**
 * POST /tickets/{key}/comments: `internal` makes a helpdesk internal note; `@username` notifies
 * that person. Its writes (the comment, history, notifications, the ticket's search document and
 * updated time) are one statement, run outside a transaction (the operation's `oneStatement`):
 * it commits as it ends, so the ticket's row, which comments on one ticket queue for, is held
 * for that statement's end and its commit only, never across a round trip to the service.
 */
export async function addComment(ctx: Context, key: string, input: CommentBody): Promise<Comment> {
  const ticket = await loadVisibleTicket(ctx, key);
  await requireTicketAction(ctx, 'comment', ticket);
  const internal = input.internal ?? false;
  const id = randomUUID();
  const visibility = internal ? 'internal' : 'public';
  const insert = sql`
    insert into comments (id, ticket_id, author_id, body_format, body_text, visibility)
    values (${id}::uuid, ${ticket.id}::uuid, ${ctx.actor.memberId}::uuid, 'markdown', ${input.body}, ${visibility})
    returning id, author_id, body_format, body_text, visibility, created_at, edited_at, search_vector`;
  const comment = await closeTicketChangeWithComment<Omit<CommentRow, 'author_name'>>(
    ctx,
    ticket,
    {
      history: [{ kind: 'commented', changes: [{ field: 'comment', from: null, to: { id, visibility } }] }],
      announcement: { kind: 'commented', payload: { comment_id: id, body: input.body, internal }, markdown: input.body },
    },
    insert,
    ['id', 'author_id', 'body_format', 'body_text', 'visibility', 'created_at', 'edited_at'],
  );
  // the author is the member making the request: their name as read with the request's token
  return presentComment({ ...comment, author_name: ctx.actor.name });
}
