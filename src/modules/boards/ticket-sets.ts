import { sql, type RawBuilder } from 'kysely';
import { visibleTicketSql, type TicketScope } from '../tickets/index.ts';
import { fromActiveSprint } from './repo.ts';
import type { BoardFilter } from './tables.ts';

/** SQL conditions on a ticket `t` (and its status `s`) that name the lists boards show. */

export const MAX_TICKETS = 500;

/**
 * A board of one project says so with `=`: PostgreSQL then walks tickets_project_rank_idx in rank
 * order and stops at the list's end, where `= any` of a one-element array sorts every ticket of
 * the project first (a 5,000-ticket project's backlog: 10–12 ms against 4–5 ms).
 */
export const inProjects = (projectIds: readonly string[]): RawBuilder<boolean> =>
  projectIds.length === 1
    ? sql<boolean>`t.project_id = ${projectIds[0]}::uuid`
    : sql<boolean>`t.project_id = any(${[...projectIds]}::uuid[])`;

/** The board's own filter (beside its projects): one of its types, one of its labels, each when given. */
export function matchesBoardFilter(filter: BoardFilter | null): RawBuilder<boolean> {
  const types = (filter?.types ?? []).map((t) => t.trim().toLowerCase());
  const labels = filter?.labels ?? [];
  return all([
    ...(types.length
      ? [sql<boolean>`exists (select 1 from ticket_types tt where tt.id = t.type_id and lower(trim(tt.name)) = any(${types}::text[]))`]
      : []),
    ...(labels.length ? [sql<boolean>`t.label_names && ${labels}::text[]`] : []),
  ]);
}

export const visibleTo = (scope: TicketScope): RawBuilder<boolean> => visibleTicketSql(scope);

/** Status names compared as names are everywhere (spec 2.1). */
export const statusIn = (names: readonly string[]): RawBuilder<boolean> =>
  sql<boolean>`lower(trim(s.name)) = any(${names.map((n) => n.trim().toLowerCase())}::text[])`;

/** In a sprint: its id, or SQL naming it (`sp.id` of a statement reading sprints). */
export const inSprint = (sprintId: string | RawBuilder<string>): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from sprint_tickets st where st.sprint_id = ${sprintId} and st.ticket_id = t.id)`;

/** In the board's active sprint as the statement reads it; no ticket when the board runs none. */
export const inActiveSprint = (boardId: string): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from sprint_tickets st where st.sprint_id = (select sp.id ${fromActiveSprint(boardId)}) and st.ticket_id = t.id)`;

export const inNoOpenSprint = (boardId: string): RawBuilder<boolean> =>
  sql<boolean>`not exists (select 1 from sprint_tickets st where st.board_id = ${boardId} and st.ticket_id = t.id and st.open)`;

/**
 * In the open sprint of the board that `ticketId` is in, or, like it, in none: the cards a scrum
 * board shows beside it. A ticket is in one open sprint of a board at most (a unique index).
 */
export const inOpenSprintWith = (boardId: string, ticketId: string): RawBuilder<boolean> =>
  sql<boolean>`(select st.sprint_id from sprint_tickets st where st.board_id = ${boardId}::uuid and st.ticket_id = t.id and st.open)
    is not distinct from (select st.sprint_id from sprint_tickets st where st.board_id = ${boardId}::uuid and st.ticket_id = ${ticketId}::uuid and st.open)`;

/** Open = anything not done (spec 4.2); a status without a category counts as open. */
export const isOpen: RawBuilder<boolean> = sql<boolean>`s.category is distinct from 'done'`;

export const all = (conditions: readonly RawBuilder<boolean>[]): RawBuilder<boolean> =>
  conditions.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(conditions, sql` and `)})`;

/** A condition on the status `s` of ticket `t` as one on `t` alone, for a statement that does not join the status (rank queries). */
export const statusOf = (condition: RawBuilder<boolean>): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from statuses s where s.id = t.status_id and ${condition})`;
