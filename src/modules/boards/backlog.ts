import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { moduleOffReason } from '../../core/settings.ts';
import { tokenCheckColumn } from '../../core/token-check.ts';
import { recordHistory } from '../../core/history.ts';
import { loadVisibleTicket, requireTicketAction, summariesOf, ticketScope, type SummaryCells, type Ticket } from '../tickets/index.ts';
import { requireOnBoard } from './card-move.ts';
import { rankCard, resolvePlace } from './placement.ts';
import { cardsJson } from './summaries.ts';
import { loadVisibleBoard, type LoadedBoard } from './policy.ts';
import { presentSprint } from './present.ts';
import { lockSprint, openSprintOf, putInSprint, sprintJson, sprintRows, takeOutOfOpenSprint, type SprintRow } from './repo.ts';
import { isBacklog, resolveSprint } from './resolve.ts';
import type { Backlog, BacklogMoveBody } from './schemas.ts';
import { all, inNoOpenSprint, inProjects, inSprint, isOpen, matchesBoardFilter, statusOf, visibleTo } from './ticket-sets.ts';

/**
 * The backlog proper: open tickets of the board's projects in no open sprint of the board. Its
 * status `s` is joined, or, given `ofStatus` = statusOf, looked up by the condition itself.
 */
export const backlogList = (
  board: LoadedBoard,
  projectIds: readonly string[],
  ofStatus = (c: RawBuilder<boolean>) => c,
): RawBuilder<boolean> => all([inProjects(projectIds), ofStatus(isOpen), inNoOpenSprint(board.id)]);

/**
 * GET /boards/{number}/backlog (spec 4.3): open sprints with their tickets, the active one first
 * and future ones in their order, then the backlog; 500 at most each. One statement, however
 * many sprints are open, which reads the sprints too and carries the token's check when one is
 * pending. With the sprints module off there are no sprints to show, and none holds a ticket
 * back: the backlog is every open ticket of the board's projects.
 */
export async function getBacklog(ctx: Context, number: number): Promise<Backlog> {
  const board = await loadVisibleBoard(ctx, number);
  const projectIds = board.visibleProjects.map((p) => p.id);
  const seen = [inProjects(projectIds), matchesBoardFilter(board.filter), visibleTo(await ticketScope(ctx))];
  const sprintsOn = moduleOffReason('sprints', ctx.settings) === null;
  const backlog = sprintsOn ? backlogList(board, projectIds) : all([inProjects(projectIds), isOpen]);
  const { tokenCheck } = ctx;
  const result = await sql<{ sprints: { sprint: SprintRow; cards: SummaryCells[] }[]; backlog: SummaryCells[]; token_check?: unknown }>`
    select coalesce((
             select json_agg(json_build_object('sprint', ${sprintJson}, 'cards', ${cardsJson(all([...seen, inSprint(sql<string>`sp.id`)]))})
                             order by sp.state = 'active' desc, sp.position, sp.created_at)
             from sprints sp
             where sp.board_id = ${board.id}::uuid and sp.state in ('active', 'future') and ${sprintsOn}),
           '[]') as sprints,
           ${cardsJson(all([...seen, backlog]))} as backlog
           ${tokenCheck ? sql`, ${tokenCheckColumn(tokenCheck.values, 'planned every time')} as token_check` : sql``}
  `.execute(ctx.db);
  const row = result.rows[0]!;
  if (tokenCheck) tokenCheck.offer(row.token_check);
  const sprints = await Promise.all(
    row.sprints.map(async ({ sprint, cards }) => ({ ...presentSprint(sprint), tickets: await summariesOf(ctx, cards) })),
  );
  return { board: board.number, sprints, backlog: await summariesOf(ctx, row.backlog) };
}

/** Records a ticket leaving one open sprint of a board for another (or for the backlog). */
export async function recordSprintChange(ctx: Context, ticketId: string, from: SprintRow | null, to: SprintRow | null): Promise<void> {
  await recordHistory(ctx, {
    entityType: 'ticket',
    entityId: ticketId,
    kind: 'sprint',
    changes: [{ field: 'sprint', from: from?.name ?? null, to: to?.name ?? null }],
  });
}

/** An open sprint by name or id, locked, and read again after the lock (it may have closed meanwhile). */
async function lockedOpenSprint(ctx: Context, board: LoadedBoard, given: string): Promise<SprintRow> {
  const sprint = resolveSprint(await sprintRows(ctx.db, board.id), given, '/sprint', 'open', board.number);
  await lockSprint(ctx, sprint.id);
  return resolveSprint(await sprintRows(ctx.db, board.id), given, '/sprint', 'open', board.number);
}

/**
 * POST /boards/{number}/backlog/moves: into an open sprint or the backlog, before/after a ticket
 * of that list or at its end. A ticket is in at most one open sprint of a board (a unique index
 * holds it), so joining one leaves the other; the history records it. Needs ticket:edit.
 */
export async function moveToSprint(ctx: Context, number: number, input: BacklogMoveBody): Promise<Ticket> {
  const board = await loadVisibleBoard(ctx, number);
  const ticket = await loadVisibleTicket(ctx, input.key, true);
  requireOnBoard(board, ticket);
  await requireTicketAction(ctx, 'rank', ticket);
  const target = isBacklog(input.sprint) ? null : await lockedOpenSprint(ctx, board, input.sprint);

  const projectIds = board.projects.map((p) => p.id);
  const list = target ? all([inProjects(projectIds), inSprint(target.id)]) : backlogList(board, projectIds, statusOf);
  const listName = target ? `sprint "${target.name}"` : `the backlog of board ${board.number}`;
  const place = await resolvePlace(ctx, list, input, ticket.id, async () => listName);

  const current = (await openSprintOf(ctx.db, board.id, ticket.id)) ?? null;
  if (current?.id !== target?.id) {
    await takeOutOfOpenSprint(ctx.db, board.id, ticket.id);
    if (target) await putInSprint(ctx.db, target, [ticket.id]);
    await ctx.db.updateTable('tickets').set({ updated_at: sql<string>`now()` }).where('id', '=', ticket.id).execute();
    await recordSprintChange(ctx, ticket.id, current, target);
  }
  return rankCard(ctx, list, ticket, place, async () => listName);
}
