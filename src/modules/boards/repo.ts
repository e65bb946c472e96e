import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import { PREPARE } from '../../storage/prepared.ts';
import type { BoardFilter, BoardKind, QuickFilter, SprintState, Swimlanes } from './tables.ts';

export interface BoardRow {
  id: string;
  number: number;
  name: string;
  kind: BoardKind;
  owner_id: string | null;
  owner_name: string | null;
  all_projects: boolean;
  done_retention_days: number | null;
  swimlanes: Swimlanes;
  quick_filters: QuickFilter[];
  filter: BoardFilter | null;
}

export interface BoardProject {
  id: string;
  key: string;
}

export interface ColumnRow {
  position: number;
  name: string | null;
  statuses: string[];
  min_tickets: number | null;
  max_tickets: number | null;
}

export interface SprintRow {
  id: string;
  board_id: string;
  name: string;
  goal: string | null;
  state: SprintState;
  start_at: string | null;
  end_at: string | null;
  completed_at: string | null;
  position: number;
}

const boardColumns = sql`b.id, b.number, b.name, b.kind, b.owner_id, m.display_name as owner_name, b.all_projects, b.done_retention_days, b.swimlanes, b.quick_filters, b.filter`;

export async function listBoardRows(db: Kysely<DB>): Promise<BoardRow[]> {
  const result = await sql<BoardRow>`/*prepare*/
    select ${boardColumns} from boards b left join members m on m.id = b.owner_id order by b.number
  `.execute(db);
  return result.rows;
}

export async function findBoardRow(db: Kysely<DB>, number: number): Promise<BoardRow | undefined> {
  const result = await sql<BoardRow>`/*prepare*/
    select ${boardColumns} from boards b left join members m on m.id = b.owner_id where b.number = ${number}
  `.execute(db);
  return result.rows[0];
}

/** The projects each board draws from, in the board's order; every project for an all-projects board. */
export async function boardProjects(db: Kysely<DB>, boards: readonly BoardRow[]): Promise<Map<string, BoardProject[]>> {
  const byBoard = new Map<string, BoardProject[]>(boards.map((b) => [b.id, []]));
  if (boards.length === 0) return byBoard;
  const listed = await db
    .selectFrom('board_projects as bp')
    .innerJoin('projects as p', 'p.id', 'bp.project_id')
    .select(['bp.board_id', 'p.id', 'p.key'])
    .where(
      'bp.board_id',
      'in',
      boards.map((b) => b.id),
    )
    .orderBy('bp.position')
    .execute();
  for (const row of listed) byBoard.get(row.board_id)?.push({ id: row.id, key: row.key });
  if (boards.some((b) => b.all_projects)) {
    const all = await db.selectFrom('projects').select(['id', 'key']).orderBy('position').orderBy('key').execute();
    for (const board of boards) if (board.all_projects) byBoard.set(board.id, all);
  }
  return byBoard;
}

export async function boardColumnRows(db: Kysely<DB>, boardId: string): Promise<ColumnRow[]> {
  return db
    .selectFrom('board_columns')
    .select(['position', 'name', 'statuses', 'min_tickets', 'max_tickets'])
    .where('board_id', '=', boardId)
    .orderBy('position')
    .execute();
}

const sprintColumns = ['id', 'board_id', 'name', 'goal', 'state', 'start_at', 'end_at', 'completed_at', 'position'] as const;

/** Every sprint of a board in its order; prepared: a scrum board's view and its backlog read them first, every time. */
export async function sprintRows(db: Kysely<DB>, boardId: string): Promise<SprintRow[]> {
  return db
    .selectFrom('sprints')
    .modifyFront(sql.raw(PREPARE))
    .select(sprintColumns)
    .where('board_id', '=', boardId)
    .orderBy('position')
    .orderBy('created_at')
    .execute();
}

/** SQL: sprint `sp` as one JSON object of a SprintRow, its times in the text sprintRows reads them in. */
export const sprintJson = sql<SprintRow>`json_build_object('id', sp.id, 'board_id', sp.board_id, 'name', sp.name, 'goal', sp.goal,
  'state', sp.state, 'start_at', sp.start_at::text, 'end_at', sp.end_at::text, 'completed_at', sp.completed_at::text, 'position', sp.position)`;

/** SQL: a FROM clause of the board's active sprint `sp` (spec 3.1: at most one; no row when the board runs none). */
export const fromActiveSprint = (boardId: string): RawBuilder<unknown> =>
  sql`from sprints sp where sp.board_id = ${boardId}::uuid and sp.state = 'active'`;

/** SQL: the board's active sprint as a SprintRow's JSON; null when the board runs none. */
export const activeSprintJson = (boardId: string): RawBuilder<SprintRow | null> =>
  sql<SprintRow | null>`(select ${sprintJson} ${fromActiveSprint(boardId)})`;

/**
 * Locks one sprint row until the transaction ends, so that changes to one sprint (start,
 * complete, delete, a ticket joining it) run one after another. NO KEY UPDATE leaves the
 * sprint_tickets foreign-key checks of other sprints' changes free, so they cannot deadlock.
 */
export async function lockSprint(ctx: { db: Kysely<DB> }, sprintId: string): Promise<void> {
  await ctx.db.selectFrom('sprints').select('id').where('id', '=', sprintId).forNoKeyUpdate().execute();
}

export async function sprintById(db: Kysely<DB>, id: string): Promise<SprintRow> {
  return db.selectFrom('sprints').select(sprintColumns).where('id', '=', id).executeTakeFirstOrThrow();
}

/** The open sprint of this board that holds a ticket, if any. */
export async function openSprintOf(db: Kysely<DB>, boardId: string, ticketId: string): Promise<SprintRow | undefined> {
  return db
    .selectFrom('sprint_tickets as st')
    .innerJoin('sprints as s', 's.id', 'st.sprint_id')
    .select(sprintColumns.map((c) => `s.${c}` as const))
    .where('st.board_id', '=', boardId)
    .where('st.ticket_id', '=', ticketId)
    .where('st.open', '=', true)
    .executeTakeFirst();
}

export async function takeOutOfOpenSprint(db: Kysely<DB>, boardId: string, ticketId: string): Promise<void> {
  await db
    .deleteFrom('sprint_tickets')
    .where('board_id', '=', boardId)
    .where('ticket_id', '=', ticketId)
    .where('open', '=', true)
    .execute();
}

/** Tickets join a sprint: open while it is, closed for a closed sprint (a seed's only). */
export async function putInSprint(
  db: Kysely<DB>,
  sprint: Pick<SprintRow, 'id' | 'board_id'>,
  ticketIds: readonly string[],
  open = true,
): Promise<void> {
  if (ticketIds.length === 0) return;
  await db
    .insertInto('sprint_tickets')
    .values(ticketIds.map((ticket_id) => ({ sprint_id: sprint.id, board_id: sprint.board_id, ticket_id, open })))
    .execute();
}

export interface NewSprint {
  boardId: string;
  name: string;
  goal: string | null;
  /** Future for a member's new sprint; a seed's may already run or be closed. */
  state?: SprintState;
  startAt: string | null;
  endAt: string | null;
  completedAt?: string | null;
}

/** The one write of a new sprint, for POST …/sprints and the workspace file's seeds: after the board's last. Returns its id. */
export async function insertSprint(db: Kysely<DB>, sprint: NewSprint): Promise<string> {
  const row = await db
    .insertInto('sprints')
    .values((eb) => ({
      board_id: sprint.boardId,
      name: sprint.name,
      goal: sprint.goal,
      ...(sprint.state ? { state: sprint.state } : {}),
      start_at: sprint.startAt,
      end_at: sprint.endAt,
      ...(sprint.completedAt ? { completed_at: sprint.completedAt } : {}),
      position: eb
        .selectFrom('sprints')
        .select(sql<number>`coalesce(max(position), -1) + 1`.as('next'))
        .where('board_id', '=', sprint.boardId),
    }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
