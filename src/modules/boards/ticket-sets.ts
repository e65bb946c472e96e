import { sql, type RawBuilder } from 'kysely';
import { visibleTicketSql, type TicketScope } from '../tickets/index.ts';

/** SQL conditions on a ticket `t` (and its status `s`) that name the lists boards show. */

export const MAX_TICKETS = 500;

export const inProjects = (projectIds: readonly string[]): RawBuilder<boolean> =>
  sql<boolean>`t.project_id = any(${[...projectIds]}::uuid[])`;

export const visibleTo = (scope: TicketScope): RawBuilder<boolean> => visibleTicketSql(scope);

/** Status names compared as names are everywhere (spec 2.1). */
export const statusIn = (names: readonly string[]): RawBuilder<boolean> =>
  sql<boolean>`lower(trim(s.name)) = any(${names.map((n) => n.trim().toLowerCase())}::text[])`;

export const inSprint = (sprintId: string): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from sprint_tickets st where st.sprint_id = ${sprintId} and st.ticket_id = t.id)`;

export const inNoOpenSprint = (boardId: string): RawBuilder<boolean> =>
  sql<boolean>`not exists (select 1 from sprint_tickets st where st.board_id = ${boardId} and st.ticket_id = t.id and st.open)`;

/** Open = anything not done (spec 4.2); a status without a category counts as open. */
export const isOpen: RawBuilder<boolean> = sql<boolean>`s.category is distinct from 'done'`;

export const all = (conditions: readonly RawBuilder<boolean>[]): RawBuilder<boolean> =>
  conditions.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(conditions, sql` and `)})`;

/** A condition on `t` alone (for rank queries), built from one that may also name its status `s`. */
export const onTicket = (condition: RawBuilder<boolean>): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from statuses s where s.id = t.status_id and ${condition})`;
