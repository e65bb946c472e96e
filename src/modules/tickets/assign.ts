import type { Context } from '../../core/context.ts';
import { recordHistory } from '../../core/history.ts';
import { insertComment } from './comments.ts';
import { loadVisibleTicket, presentTicketById } from './load.ts';
import { announce } from './notify.ts';
import { resolveAssignee } from './people.ts';
import { requireTicketAction } from './policy.ts';
import { ticketRows, touchTicket } from './repo.ts';
import type { AssigneeBody, Ticket } from './schemas.ts';

/** PUT /tickets/{key}/assignee: an assignment with a comment is one notification (spec 6). */
export async function assignTicket(ctx: Context, key: string, input: AssigneeBody): Promise<Ticket> {
  const ticket = await loadVisibleTicket(ctx, key, true);
  await requireTicketAction(ctx, 'assign', ticket);
  if (input.comment !== undefined) await requireTicketAction(ctx, 'comment', ticket);
  const project = { id: ticket.project_id, key: ticket.project_key };
  const assignee = input.assignee === null ? null : await resolveAssignee(ctx, input.assignee, project, ticket.assignee_id, '/assignee');
  const [before] = await ticketRows(ctx.db, [ticket.id]);

  const changed = (assignee?.id ?? null) !== ticket.assignee_id;
  if (changed)
    await ctx.db
      .updateTable('tickets')
      .set({ assignee_id: assignee?.id ?? null })
      .where('id', '=', ticket.id)
      .execute();
  const commentId = input.comment !== undefined ? await insertComment(ctx, ticket.id, input.comment, false) : null;
  if (changed || commentId) {
    await touchTicket(ctx.db, ticket.id, { text: 'kept', ...(commentId ? { comment: commentId } : {}) });
    await recordHistory(ctx, {
      entityType: 'ticket',
      entityId: ticket.id,
      kind: 'assigned',
      changes: [
        ...(changed ? [{ field: 'assignee', from: before?.assignee_name ?? null, to: assignee?.name ?? null }] : []),
        ...(commentId ? [{ field: 'comment', from: null, to: { id: commentId, visibility: 'public' } }] : []),
      ],
    });
    await announce(ctx, {
      ticket,
      kind: 'assigned',
      payload: { assignee: assignee, ...(commentId ? { comment_id: commentId, comment: input.comment } : {}) },
      markdown: input.comment ?? null,
    });
  }
  return presentTicketById(ctx, ticket.id);
}
