import { sql } from 'kysely';
import type { ApiError } from '../../core/errors.ts';
import { normalizeKey, normalizeName } from '../../core/names.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from '../../workspace/context.ts';
import { fail, filePath } from '../../workspace/path.ts';
import type { StoredRow } from '../../workspace/writer.ts';
import { checkBoardConfig, writeBoardConfig } from './board-config.ts';
import { parseSprintDate } from './dates.ts';
import { insertSprint, putInSprint } from './repo.ts';
import { BoardEntries, type BoardEntry } from './workspace-schema.ts';

declare module '../../workspace/schema.ts' {
  interface WorkspaceFileExtensions {
    boards?: BoardEntry[];
  }
}

type SprintEntry = NonNullable<BoardEntry['sprints']>[number];

function sprintDate(value: string | undefined, path: string): string | null {
  if (value === undefined) return null;
  try {
    return parseSprintDate(value, '');
  } catch (error) {
    return fail(path, (error as ApiError).message.replace(/^: /, ''));
  }
}

function checkSprints(board: BoardEntry, at: (...parts: (string | number)[]) => string): void {
  const sprints = board.sprints ?? [];
  if (sprints.length > 0 && board.kind !== 'scrum') fail(at('sprints'), 'only scrum boards have sprints');
  const names = new Set<string>();
  let active: string | null = null;
  sprints.forEach((sprint, s) => {
    const key = normalizeName(sprint.name);
    if (names.has(key)) fail(at('sprints', s, 'name'), `sprint "${sprint.name.trim()}" is declared twice`);
    names.add(key);
    if (sprint.state === 'active') {
      if (active) fail(at('sprints', s, 'state'), `a board runs one active sprint at a time (also ${active})`);
      active = at('sprints', s);
      if (sprint.end_date === undefined) fail(at('sprints', s, 'end_date'), 'an active sprint needs an end date');
    }
    sprintDate(sprint.start_date, at('sprints', s, 'start_date'));
    sprintDate(sprint.end_date, at('sprints', s, 'end_date'));
  });
}

async function check(ctx: CheckContext): Promise<void> {
  const boards = ctx.file.boards ?? [];
  const projectKeys = [...new Set([...(ctx.file.projects ?? []).map((p) => p.key.toUpperCase()), ...ctx.existing.projects.keys()])];
  const storedTypes = await ctx.db.selectFrom('ticket_types').select('name').execute();
  const ticketTypes = [
    ...storedTypes.map((t) => t.name),
    ...(ctx.file.projects ?? []).flatMap((p) => (p.ticket_types ?? []).map((t) => (typeof t === 'string' ? t : t.name))),
  ];
  const numbers = new Map<number, number>();
  boards.forEach((board, b) => {
    const at = (...parts: (string | number)[]) => filePath('boards', b, ...parts);
    const earlier = numbers.get(board.number);
    if (earlier !== undefined) fail(at('number'), `board ${board.number} is declared twice (also boards[${earlier}])`);
    numbers.set(board.number, b);
    if (board.owner) ctx.people.find(board.owner, at('owner'));
    const statuses = [...new Set([...ctx.workflows.values()].flatMap((w) => w.statuses))];
    checkBoardConfig(board, { statuses, projectKeys, ticketTypes }, (parts, reason) => fail(at(...parts), reason));
    checkSprints(board, at);
  });
}

/** Sprints of the file are created once, when the board has none of that name; the API runs them afterwards. */
async function applySprints(ctx: ApplyContext, boardId: string, board: BoardEntry, b: number): Promise<void> {
  const stored = await ctx.db.selectFrom('sprints').select(['name', 'state']).where('board_id', '=', boardId).execute();
  for (const [s, sprint] of (board.sprints ?? []).entries()) {
    if (stored.some((row) => normalizeName(row.name) === normalizeName(sprint.name))) continue;
    const at = (...parts: (string | number)[]) => filePath('boards', b, 'sprints', s, ...parts);
    const state = sprint.state ?? 'future';
    if (state === 'active' && stored.some((row) => row.state === 'active'))
      fail(at('state'), `board ${board.number} already has an active sprint`);
    const end = sprintDate(sprint.end_date, at('end_date'));
    const id = await insertSprint(ctx.db, {
      boardId,
      name: sprint.name.trim(),
      goal: sprint.goal ?? null,
      state,
      startAt: sprintDate(sprint.start_date, at('start_date')) ?? (state === 'future' ? null : new Date().toISOString()),
      endAt: end,
      completedAt: state === 'closed' ? (end ?? new Date().toISOString()) : null,
    });
    ctx.writer.log.note('sprints', 'created');
    stored.push({ name: sprint.name, state });
    await addSprintTickets(ctx, boardId, id, state, sprint, at);
  }
}

async function addSprintTickets(
  ctx: ApplyContext,
  boardId: string,
  sprintId: string,
  state: string,
  sprint: SprintEntry,
  at: (...parts: (string | number)[]) => string,
): Promise<void> {
  for (const [t, key] of (sprint.tickets ?? []).entries()) {
    const ticket = await ctx.db.selectFrom('tickets').select('id').where('key', '=', normalizeKey(key)).executeTakeFirst();
    if (!ticket) fail(at('tickets', t), `no ticket ${normalizeKey(key)}`);
    const open = state !== 'closed';
    if (open) {
      const taken = await sql<{
        one: number;
      }>`select 1 as one from sprint_tickets where board_id = ${boardId} and ticket_id = ${ticket.id} and open`.execute(ctx.db);
      if (taken.rows.length) fail(at('tickets', t), `${normalizeKey(key)} is already in an open sprint of this board`);
    }
    await putInSprint(ctx.db, { id: sprintId, board_id: boardId }, [ticket.id], open);
    ctx.writer.log.note('sprint_tickets', 'created');
  }
}

/** Boards are upserted by number and never deleted; columns follow the file by position. */
async function apply(ctx: ApplyContext): Promise<void> {
  for (const [b, board] of (ctx.file.boards ?? []).entries()) {
    const existing = await ctx.db.selectFrom('boards').selectAll().where('number', '=', board.number).executeTakeFirst();
    const id = await writeBoardConfig(ctx.writer, existing as StoredRow | undefined, board.number, board, {
      owner_id:
        board.owner === undefined
          ? existing
            ? undefined
            : null
          : board.owner === null
            ? null
            : ctx.people.id(board.owner, filePath('boards', b, 'owner')),
      done_retention_days: board.done_retention_days === undefined ? (existing ? undefined : null) : board.done_retention_days,
    });
    await applySprints(ctx, id, board, b);
  }
}

/** `boards`: runs after projects and seed tickets (columns name statuses, sprints name tickets). */
export const boardsSection: WorkspaceSectionHandler = { name: 'boards', fileKeys: { boards: BoardEntries }, check, apply };
