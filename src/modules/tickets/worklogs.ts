import type { Context } from '../../core/context.ts';
import { durationSeconds, MAX_SECONDS } from '../../core/durations.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { sql } from 'kysely';
import { loadVisibleTicket } from './load.ts';
import { closeTicketChangeQuietly, type Closing } from './closing.ts';
import { requireTicketAction } from './policy.ts';
import { presentWorklog, type WorklogRow } from './present.ts';
import type { TicketState } from './repo.ts';
import type { LoggedWork, WorklogBody } from './schemas.ts';

type Totals = { time_spent_seconds: number | null; remaining_estimate_seconds: number | null };
type Ticket = Pick<TicketState, 'id' | 'key'> & Totals;

/**
 * Moves a ticket's totals by `added` seconds (negative: work taken back) and records it: the time
 * adds to time_spent_seconds and comes off the remaining estimate, never below zero; a ticket
 * with no remaining estimate keeps none (spec 4.2). Work taken back does not grow the estimate.
 */
async function addToTotals(ctx: Context, ticket: Ticket, added: number, announcement?: Closing['announcement']): Promise<Totals> {
  const totals = await ctx.db
    .updateTable('tickets')
    .set({
      time_spent_seconds: sql`case when coalesce(time_spent_seconds, 0) + ${added} <= 0 and ${added} < 0 then null else coalesce(time_spent_seconds, 0) + ${added} end`,
      remaining_estimate_seconds: sql`case when remaining_estimate_seconds is null then null else greatest(remaining_estimate_seconds - greatest(${added}, 0), 0) end`,
    })
    .where('id', '=', ticket.id)
    .returning(['time_spent_seconds', 'remaining_estimate_seconds'])
    .executeTakeFirstOrThrow();
  await closeTicketChangeQuietly(ctx, ticket, {
    history: [
      {
        kind: 'worklog',
        changes: [
          { field: 'time_spent_seconds', from: ticket.time_spent_seconds, to: totals.time_spent_seconds },
          { field: 'remaining_estimate_seconds', from: ticket.remaining_estimate_seconds, to: totals.remaining_estimate_seconds },
        ],
      },
    ],
    announcement,
  });
  return totals;
}

function refuseOverflow(ticket: Ticket, seconds: number, pointer: string): void {
  // the ticket's total is an integer column too: refused here, not by the database
  if ((ticket.time_spent_seconds ?? 0) + seconds > MAX_SECONDS) {
    throw new ApiError('invalid_duration', `${pointer}: ${ticket.key} would hold more than ${MAX_SECONDS} seconds of work`);
  }
}

/** A new worklog by the member on a ticket, with its totals and notifications; returns it as its answer shows it and the ticket's new totals. */
async function addWorklog(ctx: Context, ticket: Ticket, work: { seconds: number; startedAt: string; body: string | null }): Promise<{ worklog: WorklogRow; totals: Totals }> {
  const inserted = await ctx.db
    .insertInto('worklogs')
    .values({
      ticket_id: ticket.id,
      author_id: ctx.actor.memberId,
      started_at: work.startedAt,
      time_spent_seconds: work.seconds,
      body_format: work.body !== null ? 'markdown' : null,
      body_text: work.body,
      edited_at: null,
    })
    .returning(['id', 'author_id', 'started_at', 'time_spent_seconds', 'body_format', 'body_text', 'created_at', 'edited_at'])
    .executeTakeFirstOrThrow();
  const totals = await addToTotals(ctx, ticket, work.seconds, {
    kind: 'worklog',
    payload: { worklog_id: inserted.id, time_spent_seconds: work.seconds },
    markdown: work.body,
  });
  // the author is the member making the request: their name as read with the request's token
  return { worklog: { ...inserted, author_name: ctx.actor.name }, totals };
}

/** POST /tickets/{key}/worklogs (spec 4.2). */
export async function logWork(ctx: Context, key: string, input: WorklogBody): Promise<LoggedWork> {
  const ticket = await loadVisibleTicket(ctx, key, true);
  await requireTicketAction(ctx, 'log_work', ticket);
  if (input.time_spent === undefined && input.time_spent_seconds === undefined) {
    throw invalid('/time_spent', 'is required (or time_spent_seconds instead)');
  }
  const seconds =
    input.time_spent !== undefined
      ? durationSeconds({ words: input.time_spent }, '/time_spent')
      : durationSeconds({ seconds: input.time_spent_seconds }, '/time_spent_seconds');
  refuseOverflow(ticket, seconds, input.time_spent !== undefined ? '/time_spent' : '/time_spent_seconds');
  const { worklog, totals } = await addWorklog(ctx, ticket, { seconds, startedAt: input.started_at ?? ctx.now().toISOString(), body: input.body ?? null });
  return {
    ...presentWorklog(worklog),
    ticket: { key: ticket.key, time_spent_seconds: totals.time_spent_seconds ?? seconds, remaining_estimate_seconds: totals.remaining_estimate_seconds },
  };
}

/** The work a finished activity puts on a ticket (time tracking's side of a worklog). */
export interface ActivityWork {
  ticketId: string;
  seconds: number;
  startedAt: string;
  body: string | null;
}

async function lockedTicket(ctx: Context, ticketId: string): Promise<Ticket> {
  return ctx.db
    .selectFrom('tickets')
    .select(['id', 'key', 'time_spent_seconds', 'remaining_estimate_seconds'])
    .where('id', '=', ticketId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * Keeps the worklog a time-tracking activity puts on its ticket in step with it, as Tempo does:
 * `current` is the worklog it has now (or none), `wanted` the work it stands for now (none: the
 * activity runs, was deleted or left the ticket). The ticket's totals move by the difference and
 * its history says so. The caller has checked that the member may log work on the ticket
 * (`requireTicketAction(ctx, 'log_work', …)`). Returns the worklog's id, or null.
 */
export async function syncActivityWorklog(ctx: Context, current: string | null, wanted: ActivityWork | null): Promise<string | null> {
  const existing = current
    ? await ctx.db.selectFrom('worklogs').select(['id', 'ticket_id', 'time_spent_seconds', 'started_at', 'body_text']).where('id', '=', current).executeTakeFirst()
    : undefined;
  if (existing && wanted && existing.ticket_id === wanted.ticketId) {
    const ticket = await lockedTicket(ctx, wanted.ticketId);
    const added = wanted.seconds - existing.time_spent_seconds;
    refuseOverflow(ticket, added, '/duration');
    await ctx.db
      .updateTable('worklogs')
      .set({ time_spent_seconds: wanted.seconds, started_at: wanted.startedAt, body_format: wanted.body !== null ? 'markdown' : null, body_text: wanted.body, edited_at: ctx.now().toISOString() })
      .where('id', '=', existing.id)
      .execute();
    if (added !== 0) await addToTotals(ctx, ticket, added);
    return existing.id;
  }
  if (existing) {
    const ticket = await lockedTicket(ctx, existing.ticket_id);
    await ctx.db.deleteFrom('worklogs').where('id', '=', existing.id).execute();
    await addToTotals(ctx, ticket, -existing.time_spent_seconds);
  }
  if (!wanted) return null;
  const ticket = await lockedTicket(ctx, wanted.ticketId);
  refuseOverflow(ticket, wanted.seconds, '/duration');
  return (await addWorklog(ctx, ticket, wanted)).worklog.id;
}
