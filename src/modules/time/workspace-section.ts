import { sql } from 'kysely';
import { durationSeconds } from '../../core/durations.ts';
import { ApiError } from '../../core/errors.ts';
import { normalizeKey, normalizeName } from '../../core/names.ts';
import { parseMoment } from '../../core/moments.ts';
import { isTimeZone } from '../../core/time.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from '../../workspace/context.ts';
import { fail, filePath } from '../../workspace/path.ts';
import type { StoredRow } from '../../workspace/writer.ts';
import { endAfter, normalTags } from './activities.ts';
import { insertActivity } from './repo.ts';
import { TimeSection, type ActivityEntry, type PhaseEntry, type TimeSectionValue } from './workspace-schema.ts';

declare module '../../workspace/schema.ts' {
  interface WorkspaceFileExtensions {
    time?: TimeSectionValue;
  }
}

const decimal = (value: number | string | undefined, fallback: string | null) =>
  value === undefined ? fallback : Number(value).toFixed(2);

async function knownOrganizations(ctx: CheckContext | ApplyContext): Promise<string[]> {
  const stored = await ctx.db.selectFrom('organizations').select('name').execute();
  return [...new Set([...(ctx.file.time?.organizations ?? []).map((o) => o.name.trim()), ...stored.map((o) => o.name)])];
}

async function check(ctx: CheckContext): Promise<void> {
  const time = ctx.file.time;
  if (!time) return;
  const at = (...parts: (string | number)[]) => filePath('time', ...parts);
  const seen = new Map<string, number>();
  (time.organizations ?? []).forEach((o, i) => {
    const name = normalizeName(o.name);
    if (seen.has(name))
      fail(at('organizations', i, 'name'), `organization "${o.name}" is declared twice (also time.organizations[${seen.get(name)}])`);
    seen.set(name, i);
  });
  const organizations = (await knownOrganizations(ctx)).map(normalizeName);
  const projects = new Set(
    [...(ctx.file.projects ?? []).map((p) => normalizeKey(p.key)), ...ctx.existing.projects.keys()].map(normalizeKey),
  );
  const phases = new Map<string, number>();
  (time.phases ?? []).forEach((phase, i) => {
    const name = normalizeName(phase.name);
    if (phases.has(name)) fail(at('phases', i, 'name'), `phase "${phase.name}" is declared twice (also time.phases[${phases.get(name)}])`);
    phases.set(name, i);
    if (phase.end_date < phase.start_date) fail(at('phases', i, 'end_date'), `${phase.end_date} is before start_date ${phase.start_date}`);
    if (phase.customer && !organizations.includes(normalizeName(phase.customer)))
      fail(at('phases', i, 'customer'), `no organization "${phase.customer}"; declare it under time.organizations`);
    if (phase.project && !projects.has(normalizeKey(phase.project))) fail(at('phases', i, 'project'), `no project "${phase.project}"`);
    if ((phase.rate === undefined) !== (phase.currency === undefined))
      fail(at('phases', i, phase.rate === undefined ? 'rate' : 'currency'), 'rate and currency go together');
  });
  (time.activities ?? []).forEach((activity, i) => {
    ctx.people.find(activity.member, at('activities', i, 'member'));
    if (activity.timezone !== undefined && !isTimeZone(activity.timezone))
      fail(at('activities', i, 'timezone'), `"${activity.timezone}" is not an IANA time zone (e.g. Europe/Berlin)`);
    if (!activity.start) fail(at('activities', i, 'start'), 'a seed activity needs its start');
    if (!activity.end && !activity.duration) fail(at('activities', i), 'a seed activity needs end or duration (a seed never runs)');
    if (activity.customer && !organizations.includes(normalizeName(activity.customer)))
      fail(at('activities', i, 'customer'), `no organization "${activity.customer}"`);
    if (activity.project && !projects.has(normalizeKey(activity.project)))
      fail(at('activities', i, 'project'), `no project "${activity.project}"`);
  });
}

async function applyOrganizations(ctx: ApplyContext): Promise<Map<string, string>> {
  const stored = await ctx.db.selectFrom('organizations').select(['id', 'name', 'domains']).execute();
  for (const entry of ctx.file.time?.organizations ?? []) {
    const existing = stored.find((o) => normalizeName(o.name) === normalizeName(entry.name));
    await ctx.writer.save('organizations', existing as StoredRow | undefined, {
      name: entry.name.trim(),
      domains: entry.domains ?? existing?.domains ?? [],
    });
  }
  const all = await ctx.db.selectFrom('organizations').select(['id', 'name']).execute();
  return new Map(all.map((o) => [normalizeName(o.name), o.id]));
}

async function contractId(ctx: ApplyContext, name: string): Promise<string> {
  const existing = await ctx.db
    .selectFrom('contracts')
    .select('id')
    .where(sql<string>`lower(name)`, '=', name.trim().toLowerCase())
    .executeTakeFirst();
  return existing?.id ?? (await ctx.writer.save('contracts', undefined, { name: name.trim() }));
}

async function applyPhases(ctx: ApplyContext, organizations: Map<string, string>, projectIds: Map<string, string>): Promise<void> {
  const { rows: stored } = await sql<StoredRow & { name: string }>`
    select id, name, start_date::text, end_date::text, contract_id, customer_id, project_id, rate::text, currency,
      max_days_available, hours_per_day::text, closed
    from phases`.execute(ctx.db);
  for (const phase of ctx.file.time?.phases ?? ([] as PhaseEntry[])) {
    const existing = stored.find((p) => normalizeName(p.name) === normalizeName(phase.name));
    await ctx.writer.save('phases', existing, {
      name: phase.name.trim(),
      start_date: phase.start_date,
      end_date: phase.end_date,
      contract_id: phase.contract ? await contractId(ctx, phase.contract) : null,
      customer_id: phase.customer ? organizations.get(normalizeName(phase.customer))! : null,
      project_id: phase.project ? projectIds.get(normalizeKey(phase.project))! : null,
      rate: decimal(phase.rate, null),
      currency: phase.currency ?? null,
      max_days_available: phase.max_days_available ?? null,
      hours_per_day: decimal(phase.hours_per_day, '8.00'),
      closed: phase.closed ?? false,
    });
  }
}

/** A seed's start or end, read as the API reads it (core/moments.ts); its refusal names the entry's field. */
async function instant(ctx: ApplyContext, value: string, zone: string | undefined, path: string): Promise<string> {
  if (zone === undefined && !/[zZ]$|[+-]\d\d:?\d\d$/.test(value.trim())) {
    fail(path, `"${value}" has no offset: give the activity a timezone`);
  }
  try {
    return await parseMoment(ctx.db, value, zone, '/', { days: true });
  } catch (error) {
    if (error instanceof ApiError) fail(path, error.message.replace(/^\/: /, ''));
    throw error;
  }
}

async function applyActivities(ctx: ApplyContext, organizations: Map<string, string>, projectIds: Map<string, string>): Promise<void> {
  for (const [i, entry] of (ctx.file.time?.activities ?? ([] as ActivityEntry[])).entries()) {
    const path = filePath('time', 'activities', i);
    const memberId = ctx.people.id(entry.member, `${path}.member`);
    const startedAt = await instant(ctx, entry.start!, entry.timezone, `${path}.start`);
    let endedAt: string;
    try {
      endedAt = entry.duration
        ? endAfter(startedAt, durationSeconds({ words: entry.duration }, '/duration'), '/duration')
        : await instant(ctx, entry.end!, entry.timezone, `${path}.end`);
    } catch (error) {
      if (error instanceof ApiError) fail(`${path}.duration`, error.message.replace(/^\/duration: /, ''));
      throw error;
    }
    if (endedAt < startedAt) fail(`${path}.end`, 'is before the start');
    const same = await ctx.db
      .selectFrom('activities')
      .select('id')
      .where('member_id', '=', memberId)
      .where('started_at', '=', startedAt)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (same) continue;
    let ticketId: string | null = null;
    let projectId = entry.project ? projectIds.get(normalizeKey(entry.project))! : null;
    if (entry.ticket) {
      const ticket = await ctx.db
        .selectFrom('tickets')
        .select(['id', 'project_id'])
        .where('key', '=', normalizeKey(entry.ticket))
        .executeTakeFirst();
      if (!ticket) fail(`${path}.ticket`, `no ticket "${entry.ticket}"`);
      ticketId = ticket!.id;
      projectId = ticket!.project_id;
    }
    await insertActivity(ctx.db, {
      member_id: memberId,
      description: entry.description?.trim() || null,
      started_at: startedAt,
      ended_at: endedAt,
      tags: normalTags(entry.tags ?? []),
      project_id: projectId,
      customer_id: entry.customer ? organizations.get(normalizeName(entry.customer))! : null,
      ticket_id: ticketId,
      note: entry.note?.trim() ? entry.note : null,
      billable: entry.billable ?? true,
    });
    ctx.writer.log.note('activities', 'created');
  }
}

async function apply(ctx: ApplyContext): Promise<void> {
  if (!ctx.file.time) return;
  const organizations = await applyOrganizations(ctx);
  const projects = await ctx.db.selectFrom('projects').select(['id', 'key']).execute();
  const projectIds = new Map(projects.map((p) => [normalizeKey(p.key), p.id]));
  await applyPhases(ctx, organizations, projectIds);
  await applyActivities(ctx, organizations, projectIds);
}

/** `time`: organizations (customers), billing phases and seed activities; runs after projects and seed tickets (activities name them). */
export const timeSection: WorkspaceSectionHandler = { name: 'time', fileKeys: { time: TimeSection }, check, apply };
