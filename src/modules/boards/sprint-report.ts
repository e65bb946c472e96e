import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { ApiError } from '../../core/errors.ts';
import { normalizeName } from '../../core/names.ts';
import { ticketScope, visibleTicketSql } from '../tickets/index.ts';
import { loadVisibleBoard } from './policy.ts';
import { presentSprint } from './present.ts';
import { sprintRows, type SprintRow } from './repo.ts';
import { resolveSprint } from './resolve.ts';
import type { ReportTicket, SprintReport } from './sprint-report-schema.ts';

const DAY_MS = 86_400_000;
/** A report covers at most this many days (a sprint left active for years still answers quickly). */
const MAX_DAYS = 120;
/**
 * The moves that complete a sprint are recorded in its completion's transaction, which began
 * before completed_at was taken: a ticket that left the sprint this shortly before was moved out
 * by the completion (not completed), one that left earlier was removed during the sprint.
 */
const COMPLETION_WINDOW_MS = 60_000;

interface Change {
  at: string;
  kind: string;
  field: string;
  from: unknown;
  to: unknown;
}

interface Candidate {
  key: string;
  summary: string;
  status: string;
  remaining: number | null;
  /** Whether the ticket is in the sprint now (for a closed sprint: a done ticket that stayed). */
  in_sprint: boolean;
  changes: Change[] | null;
}

/** A ticket's value of `field` at `time`: the `from` of its first change after then, else its value now. */
function valueAt<T>(changes: readonly Change[], matches: (c: Change) => boolean, time: number, now: T, read: (v: unknown) => T): T {
  const next = changes.find((c) => matches(c) && Date.parse(c.at) > time);
  return next ? read(next.from) : now;
}

const sameSprint = (value: unknown, name: string) => typeof value === 'string' && normalizeName(value) === normalizeName(name);

/**
 * What the report reads of each ticket that was ever in the sprint — in it now, or moved in or out
 * of it (history kind `sprint`, by the sprint's name) — with the changes that tell its past: its
 * sprint, its status, its remaining estimate. Only tickets of the board's projects the member can see.
 */
async function candidates(ctx: Context, projectIds: readonly string[], sprint: SprintRow): Promise<Candidate[]> {
  const scope = await ticketScope(ctx);
  const name = normalizeName(sprint.name);
  const result = await sql<Candidate>`
    with touched as (
      select st.ticket_id as id from sprint_tickets st where st.sprint_id = ${sprint.id}
      union
      select h.entity_id from history h
      where h.entity_type = 'ticket' and h.kind = 'sprint'
        and (lower(h.changes->0->>'from') = ${name} or lower(h.changes->0->>'to') = ${name})
    )
    select t.key, t.summary, s.name as status, t.remaining_estimate_seconds as remaining,
      exists (select 1 from sprint_tickets st where st.sprint_id = ${sprint.id} and st.ticket_id = t.id) as in_sprint,
      (select json_agg(json_build_object('at', h.at, 'kind', h.kind, 'field', c->>'field', 'from', c->'from', 'to', c->'to') order by h.at, h.id)
         from history h cross join lateral jsonb_array_elements(h.changes) c
         where h.entity_type = 'ticket' and h.entity_id = t.id
           and c->>'field' in ('sprint', 'status', 'remaining_estimate_seconds')) as changes
    from touched x join tickets t on t.id = x.id join statuses s on s.id = t.status_id
    where t.project_id = any(${[...projectIds]}::uuid[]) and ${visibleTicketSql(scope)}
    order by t.rank nulls last, t.id
  `.execute(ctx.db);
  return result.rows;
}

async function doneStatuses(ctx: Context): Promise<Set<string>> {
  const rows = await ctx.db.selectFrom('statuses').select('name').where('category', '=', 'done').execute();
  return new Set(rows.map((r) => normalizeName(r.name)));
}

/** A ticket's past as the report asks it: in the sprint, done, and its remaining estimate, at a moment. */
function pastOf(ticket: Candidate, sprint: SprintRow, done: ReadonlySet<string>) {
  const changes = ticket.changes ?? [];
  const ofSprint = (c: Change) => c.field === 'sprint' && (sameSprint(c.from, sprint.name) || sameSprint(c.to, sprint.name));
  return {
    inSprint: (time: number) => valueAt(changes, ofSprint, time, ticket.in_sprint, (from) => sameSprint(from, sprint.name)),
    isDone: (time: number) =>
      done.has(
        normalizeName(
          valueAt(
            changes,
            (c) => c.field === 'status',
            time,
            ticket.status,
            (from) => String(from ?? ''),
          ),
        ),
      ),
    remaining: (time: number) =>
      valueAt(
        changes,
        (c) => c.field === 'remaining_estimate_seconds',
        time,
        ticket.remaining,
        (from) => (typeof from === 'number' ? from : null),
      ),
    joined: changes.filter((c) => c.field === 'sprint' && sameSprint(c.to, sprint.name)).map((c) => Date.parse(c.at)),
    left: changes.filter((c) => c.field === 'sprint' && sameSprint(c.from, sprint.name)).map((c) => Date.parse(c.at)),
  };
}

const dayOf = (time: number) => new Date(Math.floor(time / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * The report of an active or closed sprint (spec 1: done in the browser), read from what the
 * service records: the sprint's membership changes and the tickets' status and estimate changes
 * in their history. Burndown by day (UTC), from the start to the end (planned, or the completion
 * if later; today for an active sprint): at each day's end, the tickets in the sprint not done
 * and their remaining estimate. Completed: in the sprint at its end and done. Not completed: in
 * it at its end and not done (a closed sprint's were moved out by its completion). Added: moved
 * in after the start. Removed: moved out during the sprint.
 */
export async function sprintReport(ctx: Context, number: number, given: string): Promise<SprintReport> {
  const board = await loadVisibleBoard(ctx, number);
  const sprint = resolveSprint(await sprintRows(ctx.db, board.id), given, '/sprint', 'any', board.number);
  if (sprint.state === 'future' || sprint.start_at === null) {
    throw new ApiError('wrong_state', `Sprint "${sprint.name}" has not started: a report is of an active or closed sprint`);
  }
  const [tickets, done] = await Promise.all([
    candidates(
      ctx,
      board.visibleProjects.map((p) => p.id),
      sprint,
    ),
    doneStatuses(ctx),
  ]);
  const now = ctx.now().getTime();
  const start = Date.parse(sprint.start_at);
  const completed = sprint.completed_at === null ? null : Date.parse(sprint.completed_at);
  const end = completed ?? now;
  const pasts = tickets.map((ticket) => ({ ticket, past: pastOf(ticket, sprint, done) }));

  // a closed sprint's end: just before its completion moved the unfinished tickets out
  const atEnd = completed === null ? end : completed - COMPLETION_WINDOW_MS;
  /** When the completion moved the ticket out, if it did. */
  const movedOutAt = (past: ReturnType<typeof pastOf>) =>
    completed === null ? undefined : past.left.find((at) => at > atEnd && at <= completed);
  /** In the sprint at a moment, a ticket the completion moved out counting as in it to the end. */
  const inAt = (past: ReturnType<typeof pastOf>, moment: number) => {
    const out = movedOutAt(past);
    return past.inSprint(moment) || (out !== undefined && moment >= out);
  };
  const inAtEnd = (past: ReturnType<typeof pastOf>) => inAt(past, end);

  const item = (ticket: Candidate): ReportTicket => ({ key: ticket.key, summary: ticket.summary, status: ticket.status });
  const completedTickets = pasts.filter(({ past }) => inAtEnd(past) && past.isDone(end)).map(({ ticket }) => item(ticket));
  const notCompleted = pasts.filter(({ past }) => inAtEnd(past) && !past.isDone(end)).map(({ ticket }) => item(ticket));
  const added = pasts.filter(({ past }) => past.joined.some((at) => at > start && at <= end)).map(({ ticket }) => item(ticket));
  const removed = pasts
    .filter(({ past }) => !inAtEnd(past) && past.left.some((at) => at > start && at <= atEnd))
    .map(({ ticket }) => item(ticket));

  const planned = sprint.end_at === null ? end : Math.max(Date.parse(sprint.end_at), completed ?? 0);
  const lastDay = Math.min(Math.floor(Math.max(planned, end) / DAY_MS), Math.floor(start / DAY_MS) + MAX_DAYS - 1);
  const days = [];
  for (let day = Math.floor(start / DAY_MS); day <= lastDay; day++) {
    const moment = Math.min((day + 1) * DAY_MS - 1, end);
    const future = day * DAY_MS > end;
    const open = future ? [] : pasts.filter(({ past }) => inAt(past, moment) && !past.isDone(moment));
    days.push({
      date: dayOf(day * DAY_MS),
      tickets: future ? null : open.length,
      remaining_seconds: future ? null : open.reduce((sum, { past }) => sum + (past.remaining(moment) ?? 0), 0),
    });
  }
  return {
    board: board.number,
    sprint: presentSprint(sprint),
    burndown: days,
    committed: pasts.filter(({ past }) => past.inSprint(start)).length,
    completed: completedTickets,
    not_completed: notCompleted,
    added,
    removed,
  };
}
