import type { Context } from '../../core/context.ts';
import { durationSeconds, MAX_SECONDS } from '../../core/durations.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import { recordHistory } from '../../core/history.ts';
import { sql } from 'kysely';
import { loadVisibleTicket } from './load.ts';
import { announce } from './notify.ts';
import { requireTicketAction } from './policy.ts';
import { presentWorklog, type WorklogRow } from './present.ts';
import { touchTicket } from './repo.ts';
import type { LoggedWork, WorklogBody } from './schemas.ts';

/**
 * POST /tickets/{key}/worklogs: the time adds to time_spent_seconds and comes off the remaining
 * estimate, never below zero; a ticket with no remaining estimate keeps none (spec 4.2).
 */
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
  // the ticket's total is an integer column too: refused here, not by the database
  if ((ticket.time_spent_seconds ?? 0) + seconds > MAX_SECONDS) {
    throw new ApiError('invalid_duration', `${input.time_spent !== undefined ? '/time_spent' : '/time_spent_seconds'}: ${ticket.key} would hold more than ${MAX_SECONDS} seconds of work`);
  }
  const startedAt = input.started_at ?? ctx.now().toISOString();

  const inserted = await ctx.db
    .insertInto('worklogs')
    .values({
      ticket_id: ticket.id,
      author_id: ctx.actor.memberId,
      started_at: startedAt,
      time_spent_seconds: seconds,
      body_format: input.body !== undefined ? 'markdown' : null,
      body_text: input.body ?? null,
      edited_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const totals = await ctx.db
    .updateTable('tickets')
    .set({
      time_spent_seconds: sql`coalesce(time_spent_seconds, 0) + ${seconds}`,
      remaining_estimate_seconds: sql`case when remaining_estimate_seconds is null then null else greatest(remaining_estimate_seconds - ${seconds}, 0) end`,
    })
    .where('id', '=', ticket.id)
    .returning(['time_spent_seconds', 'remaining_estimate_seconds'])
    .executeTakeFirstOrThrow();
  await touchTicket(ctx.db, ticket.id);
  await recordHistory(ctx, {
    entityType: 'ticket',
    entityId: ticket.id,
    kind: 'worklog',
    changes: [
      { field: 'time_spent_seconds', from: ticket.time_spent_seconds, to: totals.time_spent_seconds },
      { field: 'remaining_estimate_seconds', from: ticket.remaining_estimate_seconds, to: totals.remaining_estimate_seconds },
    ],
  });
  await announce(ctx, { ticket, kind: 'worklog', payload: { worklog_id: inserted.id, time_spent_seconds: seconds }, markdown: input.body ?? null });

  const row = await sql<WorklogRow>`
    select w.id, w.author_id, m.display_name as author_name, w.started_at, w.time_spent_seconds, w.body_format, w.body_text, w.created_at, w.edited_at
    from worklogs w left join members m on m.id = w.author_id where w.id = ${inserted.id}
  `.execute(ctx.db);
  return {
    ...presentWorklog(row.rows[0]!),
    ticket: { key: ticket.key, time_spent_seconds: totals.time_spent_seconds ?? seconds, remaining_estimate_seconds: totals.remaining_estimate_seconds },
  };
}
