import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { dateToTimestamp } from '../../core/time.ts';
import { ticketScope, visibleTicketSql } from '../tickets/index.ts';
import { recordSprintChange } from './backlog.ts';
import { parseOptionalDate, parseSprintDate } from './dates.ts';
import { canManageSprints, loadVisibleBoard, requireSprintManagement, type LoadedBoard } from './policy.ts';
import { presentSprint } from './present.ts';
import { insertSprint, lockSprint, putInSprint, sprintById, sprintRows, type SprintRow } from './repo.ts';
import { isBacklog, resolveSprint } from './resolve.ts';
import type {
  CompletedSprint,
  CompleteSprintBody,
  CreateSprintBody,
  Sprint,
  SprintList,
  StartSprintBody,
  UpdateSprintBody,
} from './schemas.ts';

const UNIQUE_VIOLATION = '23505';

function uniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === UNIQUE_VIOLATION && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}

/** Sprints belong to scrum boards; a kanban board has none to manage. */
function requireScrum(board: LoadedBoard): void {
  if (board.kind !== 'scrum') throw invalid('/board', `board ${board.number} is a kanban board; only scrum boards have sprints`);
}

async function managedBoard(ctx: Context, number: number): Promise<LoadedBoard> {
  const board = await loadVisibleBoard(ctx, number);
  await requireSprintManagement(ctx, board);
  requireScrum(board);
  return board;
}

function requireOrder(start: string | null | undefined, end: string | null | undefined): void {
  if (start && end && new Date(end).getTime() < new Date(start).getTime()) throw invalid('/end_date', 'is before the start date');
}

/** A sprint name is unique on its board, so that naming one in a path is never ambiguous. */
async function saveName<T>(board: LoadedBoard, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error, 'sprints_name_per_board'))
      throw invalid('/name', `board ${board.number} already has a sprint named "${name.trim()}"`);
    throw error;
  }
}

export async function listSprints(ctx: Context, number: number): Promise<SprintList> {
  const board = await loadVisibleBoard(ctx, number);
  const [sprints, canManage] = await Promise.all([sprintRows(ctx.db, board.id), canManageSprints(ctx, board)]);
  return { board: board.number, can_manage: canManage, sprints: sprints.map(presentSprint) };
}

/** POST …/sprints: a future sprint at the end of the board's sprints (spec 3.1). */
export async function createSprint(ctx: Context, number: number, input: CreateSprintBody): Promise<Sprint> {
  const board = await managedBoard(ctx, number);
  const start = parseOptionalDate(input.start_date, '/start_date') ?? null;
  const end = parseOptionalDate(input.end_date, '/end_date') ?? null;
  requireOrder(start, end);
  const name = input.name.trim();
  if (!name) throw invalid('/name', 'must not be blank');
  const id = await saveName(board, name, () =>
    insertSprint(ctx.db, { boardId: board.id, name, goal: input.goal ?? null, startAt: start, endAt: end }),
  );
  return presentSprint(await sprintById(ctx.db, id));
}

/** The sprint named in a path, locked so that state changes to it run one after another. */
async function pathSprint(ctx: Context, board: LoadedBoard, given: string): Promise<SprintRow> {
  const sprint = resolveSprint(await sprintRows(ctx.db, board.id), given, '/sprint', 'any', board.number);
  await lockSprint(ctx, sprint.id);
  return sprintById(ctx.db, sprint.id);
}

export async function updateSprint(ctx: Context, number: number, sprintName: string, input: UpdateSprintBody): Promise<Sprint> {
  const board = await managedBoard(ctx, number);
  const sprint = await pathSprint(ctx, board, sprintName);
  const start = parseOptionalDate(input.start_date, '/start_date');
  const end = parseOptionalDate(input.end_date, '/end_date');
  requireOrder(start === undefined ? sprint.start_at : start, end === undefined ? sprint.end_at : end);
  const name = input.name?.trim();
  if (name === '') throw invalid('/name', 'must not be blank');
  const patch = {
    ...(name !== undefined ? { name } : {}),
    ...(input.goal !== undefined ? { goal: input.goal } : {}),
    ...(start !== undefined ? { start_at: start } : {}),
    ...(end !== undefined ? { end_at: end } : {}),
  };
  if (Object.keys(patch).length > 0) {
    await saveName(board, name ?? sprint.name, () => ctx.db.updateTable('sprints').set(patch).where('id', '=', sprint.id).execute());
  }
  return presentSprint(await sprintById(ctx.db, sprint.id));
}

function wrongState(sprint: SprintRow, verb: 'started' | 'completed' | 'deleted'): ApiError {
  const needed = verb === 'completed' ? 'an active' : 'a future';
  return new ApiError('wrong_state', `Sprint "${sprint.name}" is ${sprint.state}; only ${needed} sprint can be ${verb}`);
}

function sprintActive(board: LoadedBoard, active: string | null): ApiError {
  return new ApiError(
    'sprint_active',
    `Board ${board.number} already has an active sprint${active ? ` ("${active}")` : ''}; complete it first`,
  );
}

/**
 * POST …/start: future → active, needing an end date (given or already set); the start date
 * defaults to now. One active sprint per board is a partial unique index, so of two starts racing
 * on one board — in one process or two — exactly one wins and the other is 409 `sprint_active`.
 */
export async function startSprint(ctx: Context, number: number, sprintName: string, input: StartSprintBody): Promise<Sprint> {
  const board = await managedBoard(ctx, number);
  const sprint = await pathSprint(ctx, board, sprintName);
  if (sprint.state !== 'future') throw wrongState(sprint, 'started');
  const active = await ctx.db
    .selectFrom('sprints')
    .select('name')
    .where('board_id', '=', board.id)
    .where('state', '=', 'active')
    .executeTakeFirst();
  if (active) throw sprintActive(board, active.name);
  const start = input.start_date !== undefined ? parseSprintDate(input.start_date, '/start_date') : dateToTimestamp(ctx.now());
  const end = input.end_date !== undefined ? parseSprintDate(input.end_date, '/end_date') : sprint.end_at;
  if (end === null) throw invalid('/end_date', `is required: sprint "${sprint.name}" has no end date yet`);
  requireOrder(start, end);
  try {
    await ctx.db.updateTable('sprints').set({ state: 'active', start_at: start, end_at: end }).where('id', '=', sprint.id).execute();
  } catch (error) {
    if (uniqueViolation(error, 'sprints_one_active_per_board')) throw sprintActive(board, null);
    throw error;
  }
  return presentSprint(await sprintById(ctx.db, sprint.id));
}

/**
 * POST …/complete: active → closed. Done tickets stay in the sprint; unfinished ones go to
 * move_open_to (an open sprint, or the backlog by default), each with a history entry.
 */
export async function completeSprint(
  ctx: Context,
  number: number,
  sprintName: string,
  input: CompleteSprintBody,
): Promise<CompletedSprint> {
  const board = await managedBoard(ctx, number);
  const sprint = await pathSprint(ctx, board, sprintName);
  if (sprint.state !== 'active') throw wrongState(sprint, 'completed');
  const others = (await sprintRows(ctx.db, board.id)).filter((s) => s.id !== sprint.id);
  const target =
    input.move_open_to === undefined || isBacklog(input.move_open_to)
      ? null
      : resolveSprint(others, input.move_open_to, '/move_open_to', 'open', board.number);

  const unfinished = await sql<{ id: string; key: string; visible: boolean }>`
    select t.id, t.key, ${visibleTicketSql(await ticketScope(ctx))} as visible
    from sprint_tickets st join tickets t on t.id = st.ticket_id join statuses s on s.id = t.status_id
    where st.sprint_id = ${sprint.id} and s.category is distinct from 'done'
    order by t.rank nulls last, t.id
  `.execute(ctx.db);
  const moved = unfinished.rows;
  if (moved.length > 0) {
    await ctx.db
      .deleteFrom('sprint_tickets')
      .where('sprint_id', '=', sprint.id)
      .where(
        'ticket_id',
        'in',
        moved.map((t) => t.id),
      )
      .execute();
    if (target)
      await putInSprint(
        ctx.db,
        target,
        moved.map((t) => t.id),
      );
    for (const ticket of moved) await recordSprintChange(ctx, ticket.id, sprint, target);
  }
  await ctx.db.updateTable('sprint_tickets').set({ open: false }).where('sprint_id', '=', sprint.id).execute();
  await ctx.db
    .updateTable('sprints')
    .set({ state: 'closed', completed_at: dateToTimestamp(ctx.now()) })
    .where('id', '=', sprint.id)
    .execute();
  return {
    ...presentSprint(await sprintById(ctx.db, sprint.id)),
    moved: moved.filter((t) => t.visible).map((t) => t.key),
  };
}

/** DELETE …/sprints/{sprint}: only a future sprint; its tickets go back to the backlog with history. */
export async function deleteSprint(ctx: Context, number: number, sprintName: string): Promise<{ deleted: Sprint }> {
  const board = await managedBoard(ctx, number);
  const sprint = await pathSprint(ctx, board, sprintName);
  if (sprint.state !== 'future') throw wrongState(sprint, 'deleted');
  const members = await ctx.db.selectFrom('sprint_tickets').select('ticket_id').where('sprint_id', '=', sprint.id).execute();
  await ctx.db.deleteFrom('sprints').where('id', '=', sprint.id).execute();
  for (const member of members) await recordSprintChange(ctx, member.ticket_id, sprint, null);
  return { deleted: presentSprint(sprint) };
}
