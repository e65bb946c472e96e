import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { durationSeconds, MAX_SECONDS } from '../../core/durations.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { inTransaction } from '../../core/transaction.ts';
import { loadVisibleTicket } from './load.ts';
import { closeTicketChangeQuietly, closeTicketChangeWithWork, TicketChangedSinceRead, type Closing, type WorkTotals } from './closing.ts';
import { requireTicketAction } from './policy.ts';
import { presentWorklog, type WorklogRow } from './present.ts';
import type { TicketState } from './repo.ts';
import type { LoggedWork, WorklogBody } from './schemas.ts';

type Ticket = Pick<TicketState, 'id' | 'key'> & WorkTotals;

/**
 * A ticket's totals after `added` seconds (negative: work taken back): the time adds to
 * time_spent_seconds and comes off the remaining estimate, never below zero; a ticket with no
 * remaining estimate keeps none (spec 4.2). Work taken back does not grow the estimate.
 */
function totalsAfter(ticket: WorkTotals, added: number): WorkTotals {
  const spent = (ticket.time_spent_seconds ?? 0) + added;
  const remaining = ticket.remaining_estimate_seconds;
  return {
    time_spent_seconds: added < 0 && spent <= 0 ? null : spent,
    remaining_estimate_seconds: remaining === null ? null : Math.max(remaining - Math.max(added, 0), 0),
  };
}

/** The history entry of a change of the ticket's totals. */
function totalsHistory(ticket: WorkTotals, totals: WorkTotals): Closing['history'] {
  const changes = (['time_spent_seconds', 'remaining_estimate_seconds'] as const).map((field) => ({
    field,
    from: ticket[field],
    to: totals[field],
  }));
  return [{ kind: 'worklog', changes }];
}

/** Moves a locked ticket's totals by `added` seconds and records it (a time-tracking activity's worklog changed or gone). */
async function addToTotals(ctx: Context, ticket: Ticket, added: number): Promise<void> {
  const totals = totalsAfter(ticket, added);
  await ctx.db.updateTable('tickets').set(totals).where('id', '=', ticket.id).execute();
  await closeTicketChangeQuietly(ctx, ticket, { words: { text: 'kept' }, history: totalsHistory(ticket, totals) });
}

function refuseOverflow(ticket: Ticket, seconds: number, pointer: string): void {
  // the ticket's total is an integer column too: refused here, not by the database
  if ((ticket.time_spent_seconds ?? 0) + seconds > MAX_SECONDS) {
    throw new ApiError('invalid_duration', `${pointer}: ${ticket.key} would hold more than ${MAX_SECONDS} seconds of work`);
  }
}

type Work = { seconds: number; startedAt: string; body: string | null };

/** What a worklog's statement writes and answers (the author's name is the request's). */
type WrittenWorklog = Omit<WorklogRow, 'author_name'>;
const WRITTEN: readonly (keyof WrittenWorklog & string)[] = [
  'id',
  'author_id',
  'started_at',
  'time_spent_seconds',
  'body_format',
  'body_text',
  'created_at',
  'edited_at',
];

/**
 * A new worklog by the member on a ticket, with its totals, history and notifications, in one
 * statement; `asRead` when the ticket was read without its row lock (the statement then writes
 * only if the ticket still holds it, else TicketChangedSinceRead). Returns the worklog as its
 * answer shows it and the ticket's new totals.
 */
async function addWorklog(
  ctx: Context,
  ticket: Ticket,
  work: Work,
  asRead?: TicketState,
): Promise<{ worklog: WorklogRow; totals: WorkTotals }> {
  const totals = totalsAfter(ticket, work.seconds);
  const id = randomUUID();
  const insert = sql`
    insert into worklogs (id, ticket_id, author_id, started_at, time_spent_seconds, body_format, body_text)
    values (${id}::uuid, ${ticket.id}::uuid, ${ctx.actor.memberId}::uuid, ${work.startedAt}::timestamptz, ${work.seconds}::integer, ${work.body !== null ? 'markdown' : null}::text, ${work.body}::text)
    returning ${sql.join(WRITTEN.map((column) => sql.ref(column)))}`;
  const written = await closeTicketChangeWithWork<WrittenWorklog>(
    ctx,
    ticket,
    {
      history: totalsHistory(ticket, totals),
      announcement: { kind: 'worklog', payload: { worklog_id: id, time_spent_seconds: work.seconds }, markdown: work.body },
    },
    { insert, totals, ...(asRead ? { asRead } : {}) },
    WRITTEN,
  );
  // the author is the member making the request: their name as read with the request's token
  return { worklog: { ...written, author_name: ctx.actor.name }, totals };
}

/** A worklog as the request asks for it, checked on the ticket as read, before anything is written. */
async function decideWork(ctx: Context, ticket: TicketState, input: WorklogBody): Promise<Work> {
  await requireTicketAction(ctx, 'log_work', ticket);
  if (input.time_spent === undefined && input.time_spent_seconds === undefined) {
    throw invalid('/time_spent', 'is required (or time_spent_seconds instead)');
  }
  const seconds =
    input.time_spent !== undefined
      ? durationSeconds({ words: input.time_spent }, '/time_spent')
      : durationSeconds({ seconds: input.time_spent_seconds }, '/time_spent_seconds');
  refuseOverflow(ticket, seconds, input.time_spent !== undefined ? '/time_spent' : '/time_spent_seconds');
  return { seconds, startedAt: input.started_at ?? ctx.now().toISOString(), body: input.body ?? null };
}

/**
 * POST /tickets/{key}/worklogs (spec 4.2). One statement (ADR 0041): decided on the ticket read
 * without a lock, by the read that carries the token's check, and written only if the ticket still
 * holds what was read, as a transition is (tickets/transitions.ts); one that finds the ticket
 * changed is decided again on the ticket locked, in a transaction.
 */
export async function logWork(ctx: Context, key: string, input: WorklogBody): Promise<LoggedWork> {
  if (!ctx.db.isTransaction) {
    const ticket = await loadVisibleTicket(ctx, key);
    const work = await decideWork(ctx, ticket, input);
    try {
      return loggedWork(ticket, await addWorklog(ctx, ticket, work, ticket));
    } catch (error) {
      if (!(error instanceof TicketChangedSinceRead)) throw error;
    }
  }
  return inTransaction(ctx, async (trx) => {
    const ticket = await loadVisibleTicket(trx, key, true);
    return loggedWork(ticket, await addWorklog(trx, ticket, await decideWork(trx, ticket, input)));
  });
}

function loggedWork(ticket: Ticket, written: { worklog: WorklogRow; totals: WorkTotals }): LoggedWork {
  const { worklog, totals } = written;
  return {
    ...presentWorklog(worklog),
    ticket: {
      key: ticket.key,
      time_spent_seconds: totals.time_spent_seconds ?? worklog.time_spent_seconds,
      remaining_estimate_seconds: totals.remaining_estimate_seconds,
    },
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
    ? await ctx.db
        .selectFrom('worklogs')
        .select(['id', 'ticket_id', 'time_spent_seconds', 'started_at', 'body_text'])
        .where('id', '=', current)
        .executeTakeFirst()
    : undefined;
  if (existing && wanted && existing.ticket_id === wanted.ticketId) {
    const ticket = await lockedTicket(ctx, wanted.ticketId);
    const added = wanted.seconds - existing.time_spent_seconds;
    refuseOverflow(ticket, added, '/duration');
    await ctx.db
      .updateTable('worklogs')
      .set({
        time_spent_seconds: wanted.seconds,
        started_at: wanted.startedAt,
        body_format: wanted.body !== null ? 'markdown' : null,
        body_text: wanted.body,
        edited_at: ctx.now().toISOString(),
      })
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
