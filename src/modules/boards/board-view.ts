import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { ApiError } from '../../core/errors.ts';
import { moduleOffReason } from '../../core/settings.ts';
import { tokenCheckColumn } from '../../core/token-check.ts';
import { normalizeName } from '../../core/names.ts';
import {
  summariesOf,
  summaryCellsJson,
  ticketScope,
  visibleTicketSql,
  type ListedSummary,
  type SummaryCells,
  type TicketScope,
} from '../tickets/index.ts';
import { loadVisibleBoard, withVisibleProjects, type LoadedBoard } from './policy.ts';
import { presentBoard, presentSprint } from './present.ts';
import { activeSprintJson, listBoardRows, sprintRows, type ColumnRow, type SprintRow } from './repo.ts';
import { resolveSprint } from './resolve.ts';
import { cardSourceColumns } from './summaries.ts';
import type { Board, BoardDetail, Column } from './schemas.ts';
import { all, inActiveSprint, inProjects, inSprint, matchesBoardFilter, MAX_TICKETS, statusIn } from './ticket-sets.ts';

const DAY_MS = 86_400_000;

export async function listBoards(ctx: Context): Promise<Board[]> {
  const boards = await withVisibleProjects(ctx, await listBoardRows(ctx.db));
  return boards.map((board) => presentBoard(board, ctx.publicUrl));
}

/** The sprint a board shows: none, one named, or the active one, read by the board's own statement. */
type SprintShown = SprintRow | null | 'active';

/**
 * `sprint` on a scrum board: a name or id, `none` for every ticket; left out: the active sprint,
 * if any. With the sprints module off a board shows every ticket, and asking for a sprint is 403.
 */
async function sprintShown(ctx: Context, board: LoadedBoard, given: string | undefined): Promise<SprintShown> {
  const sprintsOff = moduleOffReason('sprints', ctx.settings);
  if (given !== undefined && normalizeName(given) !== 'none' && sprintsOff !== null) {
    throw new ApiError('feature_disabled', `${sprintsOff}: a board shows every ticket; leave out \`sprint\``);
  }
  if (board.kind !== 'scrum' || sprintsOff !== null) return null;
  if (given === undefined) return 'active';
  if (normalizeName(given) === 'none') return null;
  return resolveSprint(await sprintRows(ctx.db, board.id), given, '/sprint', 'any', board.number);
}

/**
 * Done tickets past the retention (spec 2.5): done for longer than `days`, counted from the
 * resolution, else from the last status change, else from creation.
 */
function doneTooLong(days: number | null, now: Date): RawBuilder<boolean> {
  if (days === null) return sql<boolean>`false`;
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  return sql<boolean>`(s.category = 'done' and coalesce(
    t.resolved_at,
    (select max(h.at) from history h where h.entity_type = 'ticket' and h.entity_id = t.id and h.kind = 'transitioned'),
    t.created_at) < ${cutoff}::timestamptz)`;
}

function columnOf(columns: readonly ColumnRow[]): Map<string, number> {
  const index = new Map<string, number>();
  for (const column of columns) {
    for (const status of column.statuses) if (!index.has(normalizeName(status))) index.set(normalizeName(status), column.position);
  }
  return index;
}

interface BoardCards {
  sprint: SprintRow | null;
  unmapped: number;
  hidden_done: number;
  cards: ListedSummary[];
}

/**
 * One statement: both counts, and the first 500 cards shown (in rank order) with what a card
 * shows, as one JSON array (on PGlite one value crosses the wire faster than 500 rows). The
 * board's rows carry what a card shows of its ticket, so the shown ones are not read again. The
 * active sprint is read by the same statement, so a scrum board costs one round trip.
 */
async function boardCards(ctx: Context, board: LoadedBoard, scope: TicketScope, shown: SprintShown): Promise<BoardCards> {
  const onBoard = all([
    inProjects(board.visibleProjects.map((p) => p.id)),
    matchesBoardFilter(board.filter),
    // security levels decided in the query: no round trip to read the member's levels first
    visibleTicketSql(scope),
    ...(shown === 'active' ? [inActiveSprint(board.id)] : shown ? [inSprint(shown.id)] : []),
  ]);
  const mapped = board.columns.flatMap((c) => c.statuses);
  const hidden = doneTooLong(board.done_retention_days, ctx.now());
  const { tokenCheck } = ctx;
  const result = await sql<{
    unmapped: number;
    hidden_done: number;
    cards: SummaryCells[];
    sprint?: SprintRow | null;
    token_check?: unknown;
  }>`/*prepare*/
    with board as (
      select ${cardSourceColumns}, ${statusIn(mapped)} as mapped, ${hidden} as hidden
      from tickets t join statuses s on s.id = t.status_id
      where ${onBoard}
    ),
    shown as (
      select * from board where mapped and not hidden order by rank nulls last, id limit ${MAX_TICKETS}
    )
    select (select count(*) from board where not mapped)::int as unmapped,
           (select count(*) from board where mapped and hidden)::int as hidden_done,
           coalesce((select json_agg(${summaryCellsJson} order by t.rank nulls last, t.id)
                     from shown t), '[]') as cards
           ${shown === 'active' ? sql`, ${activeSprintJson(board.id)} as sprint` : sql``}
           ${tokenCheck ? sql`, ${tokenCheckColumn(tokenCheck.values, 'prepared')} as token_check` : sql``}
  `.execute(ctx.db);
  const first = result.rows[0];
  if (first && tokenCheck) tokenCheck.offer(first.token_check);
  return {
    sprint: shown === 'active' ? (first?.sprint ?? null) : shown,
    unmapped: first?.unmapped ?? 0,
    hidden_done: first?.hidden_done ?? 0,
    cards: first ? await summariesOf(ctx, first.cards) : [],
  };
}

/**
 * GET /boards/{number}: what the board page shows the member — columns in order with their
 * tickets in rank order (at most 500 in all), how many tickets no column shows, and how many
 * done ones the retention leaves off. Work-in-progress limits are shown, never enforced.
 */
export async function getBoard(ctx: Context, number: number, sprintGiven?: string): Promise<BoardDetail> {
  const board = await loadVisibleBoard(ctx, number);
  const [shown, scope] = await Promise.all([sprintShown(ctx, board, sprintGiven), ticketScope(ctx)]);
  let read = await boardCards(ctx, board, scope, shown);
  // a scrum board with no active sprint shows every ticket: read again without the sprint
  if (shown === 'active' && read.sprint === null) read = await boardCards(ctx, board, scope, null);
  const { sprint, cards, unmapped, hidden_done } = read;
  const columns = board.columns;
  const position = columnOf(columns);
  const presented: Column[] = columns.map((c) => ({
    index: c.position,
    name: c.name,
    statuses: c.statuses,
    min: c.min_tickets,
    max: c.max_tickets,
    tickets: [],
  }));
  const byPosition = new Map(presented.map((c) => [c.index, c]));
  for (const card of cards) {
    const at = position.get(normalizeName(card.status.name));
    if (at !== undefined) byPosition.get(at)?.tickets.push(card);
  }
  return {
    ...presentBoard(board, ctx.publicUrl),
    sprint: sprint ? presentSprint(sprint) : null,
    columns: presented,
    unmapped,
    hidden_done,
    done_retention_days: board.done_retention_days,
  };
}
