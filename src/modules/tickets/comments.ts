import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Context, RowWrite } from '../../core/context.ts';
import { loadVisibleTicket } from './load.ts';
import { closeTicketChangesWithComments, commentedChange, type CommentedChange } from './closing.ts';
import { requireTicketAction } from './policy.ts';
import { presentComment, type CommentRow } from './present.ts';
import type { Comment, CommentBody } from './schemas.ts';

/** A comment's row: the member's (Markdown, public or internal, made now) or a seed's (any format, visibility and order). */
export interface CommentRowValues {
  id: string;
  ticketId: string;
  authorId: string | null;
  format: string;
  body: string;
  visibility: 'public' | 'internal' | 'restricted';
  restrictedRoleId?: string | null;
  restrictedGroupId?: string | null;
  /** When it was made: now (spec 4.2: a comment's time is when it was made), or a seed's place in its file. */
  createdAt?: RawBuilder<string>;
}

/** SQL: the one insert of a comment, returning what its answer shows and its search_vector. */
export function commentInsert(row: CommentRowValues): RawBuilder<unknown> {
  return sql`
    insert into comments (id, ticket_id, author_id, body_format, body_text, visibility, restricted_role_id, restricted_group_id, created_at)
    values (${row.id}::uuid, ${row.ticketId}::uuid, ${row.authorId}::uuid, ${row.format}, ${row.body}, ${row.visibility},
      ${row.restrictedRoleId ?? null}::uuid, ${row.restrictedGroupId ?? null}::uuid, ${row.createdAt ?? sql`now()`})
    returning id, author_id, body_format, body_text, visibility, created_at, edited_at, search_vector`;
}

/** The member's Markdown comment, made now. */
function memberComment(ctx: Context, ticketId: string, id: string, body: string, internal: boolean): CommentRowValues {
  return { id, ticketId, authorId: ctx.actor.memberId, format: 'markdown', body, visibility: internal ? 'internal' : 'public' };
}

/** Writes a Markdown comment made now, in a statement of its own; returns its id. */
export async function insertComment(ctx: Context, ticketId: string, body: string, internal: boolean): Promise<string> {
  const id = randomUUID();
  await commentInsert(memberComment(ctx, ticketId, id, body, internal)).execute(ctx.db);
  return id;
}

/** What a comment's answer shows as the statement writes it (the author's name is the request's). */
type WrittenComment = Omit<CommentRow, 'author_name'>;
const WRITTEN: readonly (keyof WrittenComment & string)[] = [
  'id',
  'author_id',
  'body_format',
  'body_text',
  'visibility',
  'created_at',
  'edited_at',
];

/** Comments on one ticket written as one statement (Context.writeJoined). */
const writeComments: RowWrite<CommentedChange, WrittenComment> = (db, changes) =>
  closeTicketChangesWithComments<WrittenComment>(db, changes, WRITTEN);

/**
 * POST /tickets/{key}/comments: `internal` makes a helpdesk internal note; `@username` notifies
 * that person. Its writes (the comment, history, notifications, the ticket's search document and
 * updated time) are one statement, run outside a transaction (the operation's `oneStatement`):
 * it commits as it ends, so the ticket's row, which comments on one ticket queue for, is held
 * for that statement's end and its commit only, never across a round trip to the service. The
 * comments that wait for the row meanwhile are written together, in one statement.
 */
export async function addComment(ctx: Context, key: string, input: CommentBody): Promise<Comment> {
  const ticket = await loadVisibleTicket(ctx, key);
  await requireTicketAction(ctx, 'comment', ticket);
  const internal = input.internal ?? false;
  const id = randomUUID();
  const change = commentedChange(
    ctx,
    ticket,
    {
      history: [
        { kind: 'commented', changes: [{ field: 'comment', from: null, to: { id, visibility: internal ? 'internal' : 'public' } }] },
      ],
      announcement: { kind: 'commented', payload: { comment_id: id, body: input.body, internal }, markdown: input.body },
    },
    id,
    commentInsert(memberComment(ctx, ticket.id, id, input.body, internal)),
  );
  const comment = await ctx.writeJoined(writeComments, change);
  // the author is the member making the request: their name as read with the request's token
  return presentComment({ ...comment, author_name: ctx.actor.name });
}
