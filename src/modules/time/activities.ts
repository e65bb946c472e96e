import { isUuid } from '../../core/schema-kit.ts';
import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { durationSeconds, MAX_SECONDS } from '../../core/durations.ts';
import { recordHistory } from '../../core/history.ts';
import { inRange, parseMoment } from '../../core/moments.ts';
import { dateToTimestamp, toTimestamp } from '../../core/time.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { syncActivityWorklog } from '../tickets/index.ts';
import { resolveCustomer, resolveProjectLink, resolveTicketLink } from './links.ts';
import { othersVisibleIn, refuseUnseenActivity, requireChangeable, requireLogIn } from './policy.ts';
import { presentActivity } from './present.ts';
import { findActivity, insertActivity, runningActivity, type ActivityRow } from './repo.ts';
import type { Activity, ActivityBody, DeletedActivity } from './schemas.ts';
import { localDay, requestZone } from './zoned.ts';

/** An activity the member may see, by id (404 otherwise), locked for a change when asked. */
export async function loadActivity(ctx: Context, id: string, forUpdate = false): Promise<ActivityRow> {
  const row = isUuid(id) ? await findActivity(ctx.db, id, forUpdate) : undefined;
  refuseUnseenActivity(ctx, row, await othersVisibleIn(ctx), id);
  return row;
}

/**
 * After every change of an activity: the worklog it puts on its ticket follows it (Tempo-like) —
 * a finished activity linked to a ticket is one worklog there; running, deleted or unlinked, none.
 */
async function syncWorklog(ctx: Context, id: string): Promise<void> {
  const row = await ctx.db
    .selectFrom('activities')
    .select(['ticket_id', 'worklog_id', 'description', 'deleted_at', sql<string>`started_at::text`.as('started_at'), 'seconds'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const wanted =
    row.ticket_id !== null && row.seconds !== null && row.seconds > 0 && row.deleted_at === null
      ? { ticketId: row.ticket_id, seconds: row.seconds, startedAt: toTimestamp(row.started_at), body: row.description }
      : null;
  const worklogId = await syncActivityWorklog(ctx, row.worklog_id, wanted);
  if (worklogId !== row.worklog_id) await ctx.db.updateTable('activities').set({ worklog_id: worklogId }).where('id', '=', id).execute();
}

async function present(ctx: Context, id: string): Promise<Activity> {
  return presentActivity((await findActivity(ctx.db, id))!);
}

interface Links {
  project_id: string | null;
  customer_id: string | null;
  ticket_id: string | null;
}

/**
 * project, customer and ticket of a body, resolved and permission-checked before anything is
 * written: a ticket sets the project to its own; a project given beside a ticket must be it.
 */
async function resolveLinks(ctx: Context, body: ActivityBody, current: Links): Promise<Links> {
  const links: Links = { project_id: current.project_id, customer_id: current.customer_id, ticket_id: current.ticket_id };
  const ticket = body.ticket !== undefined ? await resolveTicketLink(ctx, body.ticket, true) : undefined;
  const project = body.project !== undefined ? await resolveProjectLink(ctx, body.project) : undefined;
  if (ticket !== undefined) links.ticket_id = ticket?.id ?? null;
  if (ticket && project && project.id !== ticket.projectId) {
    throw invalid(
      '/project',
      `${project.key} is not the project of ticket ${ticket.key} (${ticket.projectKey}); leave project out with a ticket`,
    );
  }
  if (ticket) links.project_id = ticket.projectId;
  else if (project !== undefined) {
    links.project_id = project?.id ?? null;
    // a ticket of another project no longer fits
    if (body.ticket === undefined && links.ticket_id !== null && project?.id !== current.project_id) links.ticket_id = null;
  }
  if (body.customer !== undefined) links.customer_id = (await resolveCustomer(ctx, body.customer))?.id ?? null;
  if (links.project_id !== null && links.project_id !== current.project_id) {
    const key = ticket?.projectKey ?? project?.key ?? '';
    await requireLogIn(ctx, { id: links.project_id, key });
  }
  return links;
}

export const normalTags = (tags: readonly string[]) => [...new Set(tags.map((t) => t.trim()).filter((t) => t !== ''))];

/** The end `seconds` after a start; 422 on `pointer` when it falls after the year 9999 (in UTC). */
export function endAfter(startedAt: string, seconds: number, pointer: string): string {
  const end = new Date(startedAt).getTime() + seconds * 1000;
  if (!inRange(end)) throw invalid(pointer, 'makes the activity end after the year 9999 (in UTC)');
  return new Date(end).toISOString();
}

/** The end of a body: `end` (a time) or `duration` from the start; neither: undefined. */
async function endOf(ctx: Context, body: ActivityBody, startedAt: string, zone: string | null): Promise<string | null | undefined> {
  if (body.end !== undefined && body.end !== null && body.duration !== undefined && body.duration !== null) {
    throw invalid('/duration', 'give end or duration, not both');
  }
  if (body.duration !== undefined && body.duration !== null) {
    return endAfter(startedAt, durationSeconds({ words: body.duration }, '/duration'), '/duration');
  }
  if (body.end !== undefined && body.end !== null) {
    const clockOn = zone === null ? undefined : await localDay(ctx, startedAt, zone);
    return parseMoment(ctx.db, body.end, zone, '/end', { days: true, clockOn });
  }
  return undefined;
}

function checkSpan(startedAt: string, endedAt: string | null): void {
  if (endedAt === null) return;
  const seconds = (new Date(endedAt).getTime() - new Date(startedAt).getTime()) / 1000;
  if (seconds < 0) throw invalid('/end', `is before the start (${dateToTimestamp(new Date(startedAt))})`);
  if (seconds > MAX_SECONDS) throw invalid('/end', 'an activity lasts at most 68 years');
}

/**
 * POST /activities (spec 3.3): neither end nor duration starts a running activity — and stops
 * the member's running one at the new start (one timer at a time, as a stopwatch does); a new
 * start before the running one's is 422. With end or duration it is finished.
 */
export async function createActivity(ctx: Context, body: ActivityBody): Promise<Activity> {
  const zone = await requestZone(ctx, body.timezone);
  const startedAt =
    body.start !== undefined ? await parseMoment(ctx.db, body.start, zone, '/start', { days: true }) : ctx.now().toISOString();
  const endedAt = (await endOf(ctx, body, startedAt, zone)) ?? null;
  checkSpan(startedAt, endedAt);
  const links = await resolveLinks(ctx, body, { project_id: null, customer_id: null, ticket_id: null });

  if (endedAt === null) {
    const running = await runningActivity(ctx.db, ctx.actor.memberId);
    if (running) {
      if (new Date(startedAt) < new Date(toTimestamp(running.started_at))) {
        throw invalid('/start', `is before the start of your running activity (${toTimestamp(running.started_at)}); stop that one first`);
      }
      await ctx.db
        .updateTable('activities')
        .set({ ended_at: startedAt, edited_at: ctx.now().toISOString() })
        .where('id', '=', running.id)
        .execute();
      await recordHistory(ctx, {
        entityType: 'activity',
        entityId: running.id,
        kind: 'stopped_by_new',
        changes: [{ field: 'ended_at', from: null, to: startedAt }],
      });
      await syncWorklog(ctx, running.id);
    }
  }
  const id = await insertActivity(ctx.db, {
    member_id: ctx.actor.memberId,
    description: body.description?.trim() || null,
    started_at: startedAt,
    ended_at: endedAt,
    tags: normalTags(body.tags ?? []),
    ...links,
    note: body.note?.trim() ? body.note : null,
    billable: body.billable ?? true,
    created_at: ctx.now().toISOString(),
  });
  await recordHistory(ctx, { entityType: 'activity', entityId: id, kind: 'created', changes: [] });
  await syncWorklog(ctx, id);
  return present(ctx, id);
}

/** PATCH /activities/{id}: any create field; `null` or `""` clears project, customer or ticket; other fields stay. */
export async function updateActivity(ctx: Context, id: string, body: ActivityBody): Promise<Activity> {
  const row = await loadActivity(ctx, id, true);
  requireChangeable(ctx, row, 'change');
  const zone = await requestZone(ctx, body.timezone);
  const startedAt =
    body.start !== undefined
      ? await parseMoment(ctx.db, body.start, zone, '/start', { days: true })
      : new Date(toTimestamp(row.started_at)).toISOString();
  let endedAt = row.ended_at === null ? null : new Date(toTimestamp(row.ended_at)).toISOString();
  const newEnd = await endOf(ctx, body, startedAt, zone);
  if (newEnd !== undefined) endedAt = newEnd;
  else if (body.start !== undefined && endedAt !== null && (body.end === undefined || body.end === null)) {
    // a new start keeps the duration, as moving a block in a timesheet does
    const seconds = (new Date(endedAt).getTime() - new Date(toTimestamp(row.started_at)).getTime()) / 1000;
    endedAt = endAfter(startedAt, seconds, '/start');
  }
  checkSpan(startedAt, endedAt);
  const links = await resolveLinks(ctx, body, row);

  const wanted = {
    description: body.description === undefined ? row.description : body.description?.trim() || null,
    started_at: startedAt,
    ended_at: endedAt,
    tags: body.tags === undefined ? row.tags : normalTags(body.tags),
    ...links,
    note: body.note === undefined ? row.note : body.note?.trim() ? body.note : null,
    billable: body.billable ?? row.billable,
  };
  const before: Record<string, unknown> = {
    description: row.description,
    started_at: new Date(toTimestamp(row.started_at)).toISOString(),
    ended_at: row.ended_at === null ? null : new Date(toTimestamp(row.ended_at)).toISOString(),
    tags: row.tags,
    project_id: row.project_id,
    customer_id: row.customer_id,
    ticket_id: row.ticket_id,
    note: row.note,
    billable: row.billable,
  };
  const changes: HistoryChange[] = Object.entries(wanted)
    .filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(before[field]))
    .map(([field, to]) => ({ field: field.replace(/_id$/, ''), from: before[field], to }));
  if (changes.length === 0) return presentActivity(row);
  await ctx.db
    .updateTable('activities')
    .set({ ...wanted, edited_at: ctx.now().toISOString() })
    .where('id', '=', row.id)
    .execute();
  await recordHistory(ctx, { entityType: 'activity', entityId: row.id, kind: 'updated', changes });
  await syncWorklog(ctx, row.id);
  return present(ctx, row.id);
}

/** POST /activities/{id}/stop: `end` as a time with an offset, a local time, `HH:MM` on the start's day, or now. */
export async function stopActivity(ctx: Context, id: string, body: { end?: string; timezone?: string }): Promise<Activity> {
  const row = await loadActivity(ctx, id, true);
  requireChangeable(ctx, row, 'stop');
  if (row.ended_at !== null) throw invalid('/', `activity ${row.id} is not running (it ended at ${toTimestamp(row.ended_at)})`);
  const zone = await requestZone(ctx, body.timezone);
  const startedAt = new Date(toTimestamp(row.started_at)).toISOString();
  let endedAt: string;
  if (body.end === undefined) endedAt = ctx.now().toISOString();
  else {
    const clockOn = zone === null ? undefined : await localDay(ctx, startedAt, zone);
    endedAt = await parseMoment(ctx.db, body.end, zone, '/end', { days: true, clockOn });
  }
  checkSpan(startedAt, endedAt);
  await ctx.db.updateTable('activities').set({ ended_at: endedAt, edited_at: ctx.now().toISOString() }).where('id', '=', row.id).execute();
  await recordHistory(ctx, {
    entityType: 'activity',
    entityId: row.id,
    kind: 'stopped',
    changes: [{ field: 'ended_at', from: null, to: endedAt }],
  });
  await syncWorklog(ctx, row.id);
  return present(ctx, row.id);
}

/** DELETE /activities/{id}: leaves every list and total; its history says so. */
export async function deleteActivity(ctx: Context, id: string): Promise<DeletedActivity> {
  const row = await loadActivity(ctx, id, true);
  requireChangeable(ctx, row, 'delete');
  await ctx.db.updateTable('activities').set({ deleted_at: ctx.now().toISOString() }).where('id', '=', row.id).execute();
  await recordHistory(ctx, { entityType: 'activity', entityId: row.id, kind: 'deleted', changes: [] });
  await syncWorklog(ctx, row.id);
  return { id: row.id, deleted: true };
}
