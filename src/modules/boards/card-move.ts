import type { Context } from '../../core/context.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { normalizeName } from '../../core/names.ts';
import {
  loadVisibleTicket,
  requireTicketAction,
  transitionInto,
  transitionLocked,
  type Ticket,
  type TicketState,
  type TransitionChoice,
} from '../tickets/index.ts';
import { rankCard, resolvePlace, type ListName } from './placement.ts';
import { loadVisibleBoard, type LoadedBoard } from './policy.ts';
import { openSprintOf, type ColumnRow } from './repo.ts';
import { resolveColumn } from './resolve.ts';
import type { CardMoveBody } from './schemas.ts';
import { all, inOpenSprintWith, inProjects, statusIn, statusOf } from './ticket-sets.ts';

export function requireOnBoard(board: LoadedBoard, ticket: TicketState): void {
  if (!board.projects.some((p) => p.id === ticket.project_id)) {
    throw invalid(
      '/key',
      `${ticket.key} is not on board ${board.number} (it draws from ${board.visibleProjects.map((p) => p.key).join(', ')})`,
    );
  }
}

const columnName = (column: ColumnRow) => (column.name ? `"${column.name}"` : `#${column.position}`);

/** A move is never half done: what the transition asks for must be given before anything changes. */
function requireAsked(transition: TransitionChoice, input: CardMoveBody): void {
  if (transition.asks.resolution && input.resolution === undefined) {
    throw invalid('/resolution', `the move takes transition "${transition.name}", which asks for a resolution; give resolution`);
  }
  const missing = transition.asks.fields.filter(
    (key) => !Object.keys(input.fields ?? {}).some((k) => normalizeName(k) === normalizeName(key)),
  );
  if (missing.length) {
    throw invalid(
      `/fields/${missing[0]}`,
      `the move takes transition "${transition.name}", which asks for ${missing.join(', ')}; give them in fields`,
    );
  }
}

/** Transition details make no sense for a card that stays in its column. */
function refuseTransitionDetails(input: CardMoveBody, column: ColumnRow): void {
  for (const field of ['resolution', 'comment', 'comment_internal', 'assignee', 'fields'] as const) {
    if (input[field] !== undefined) {
      throw invalid(`/${field}`, `the ticket is already in column ${columnName(column)}, so the move takes no transition and no ${field}`);
    }
  }
}

/**
 * POST /boards/{number}/moves. Into another column: ticket:transition and the first transition the
 * member may take there, with what it asks for. Within its column: a reorder, needing
 * ticket:edit. Either way the card is ranked before/after its neighbour or at the column's end.
 * The whole move is one transaction: refused, it changes nothing.
 */
export async function moveCard(ctx: Context, number: number, input: CardMoveBody): Promise<Ticket> {
  const board = await loadVisibleBoard(ctx, number);
  const ticket = await loadVisibleTicket(ctx, input.key, true);
  requireOnBoard(board, ticket);
  const column = resolveColumn(board.columns, input.column, board.number);
  const move = await transitionInto(ctx, ticket, column.statuses);
  const { transition } = move;
  if (move.staying) {
    await requireTicketAction(ctx, 'rank', ticket);
    refuseTransitionDetails(input, column);
  } else {
    await requireTicketAction(ctx, 'transition', ticket);
    if (!transition) {
      throw new ApiError(
        'no_transition',
        `/column: no transition you can take leads ${ticket.key} from ${move.status} into column ${columnName(column)} (${column.statuses.join(', ') || 'no statuses'})`,
      );
    }
    requireAsked(transition, input);
  }

  // The column as it shows beside the card: on a scrum board, the tickets of the card's open sprint (or of none).
  const scrum = board.kind === 'scrum';
  const inColumn = all([
    inProjects(board.projects.map((p) => p.id)),
    statusOf(statusIn(column.statuses)),
    ...(scrum ? [inOpenSprintWith(board.id, ticket.id)] : []),
  ]);
  const listName: ListName = async () => {
    const sprint = scrum ? ((await openSprintOf(ctx.db, board.id, ticket.id)) ?? null) : undefined;
    return `column ${columnName(column)} of board ${board.number}${sprint === undefined ? '' : sprint ? ` in sprint ${sprint.name}` : ' outside its sprints'}`;
  };
  const place = await resolvePlace(ctx, inColumn, input, ticket.id, listName);

  if (transition) {
    await transitionLocked(ctx, ticket, {
      transition: transition.id,
      resolution: input.resolution,
      comment: input.comment,
      comment_internal: input.comment_internal,
      assignee: input.assignee,
      fields: input.fields,
    });
  }
  return rankCard(ctx, inColumn, ticket, place, listName);
}
