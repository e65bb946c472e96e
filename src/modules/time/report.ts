import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { resolveName } from '../../core/names.ts';
import { billingScope, maySeeBilling, phaseVisibility } from './policy.ts';
import { filteredActivities, resolveFilters, type ActivityFilters } from './read.ts';
import { GROUP_BY, type GroupBy, type HoursReport } from './schemas.ts';
import { localDay } from './zoned.ts';

function groupKeys(given: string | undefined): GroupBy[] {
  if (given === undefined || given.trim() === '') return [];
  const keys = given.split(',').map((k) => k.trim().toLowerCase());
  for (const key of keys) {
    if (!(GROUP_BY as readonly string[]).includes(key))
      throw invalid('/group_by', `"${key}" is not a grouping; group_by takes ${GROUP_BY.join(', ')}`);
  }
  if (new Set(keys).size !== keys.length) throw invalid('/group_by', 'names a grouping twice');
  if (keys.length > 2) throw invalid('/group_by', 'takes at most two groupings');
  return keys as GroupBy[];
}

/**
 * What each grouping but `phase` (matched after summing) groups by, per activity `a` (its tag
 * `tg.tg`), and shows, per group `g` (its column `g_<key>`), with the join that names it. Sums
 * are made by ids and named after, so the names are joined to a few thousand groups, not to
 * each of a year's 100,000 activities (a fifth of the report's time in PostgreSQL; ADR 0029);
 * groups whose names are equal are merged when the rows are read. Days, weeks and months are
 * those of the report's zone: activities are grouped by their day there, and each group's day is
 * truncated and formatted (to_char on each activity was a fifth to a quarter of the report's
 * time). The zone, a name the service has checked, is written as a literal: in UTC the local
 * day is the UTC day the phases need, one expression that PostgreSQL groups by once.
 */
function keySql(
  key: Exclude<GroupBy, 'phase'>,
  zone: string,
): { grouped: RawBuilder<unknown>; shown: RawBuilder<string | null>; naming?: RawBuilder<unknown> } {
  const column = sql.ref(`g.g_${key}`);
  const period = (unit: 'day' | 'week' | 'month', format: string) => ({
    grouped: sql`(a.started_at at time zone ${sql.lit(zone)})::date`,
    shown: sql<string>`to_char(date_trunc(${sql.lit(unit)}, ${column}::timestamp), ${sql.lit(format)})`,
  });
  const named = (id: string, table: string, alias: string, name: string) => ({
    grouped: sql.ref(id),
    shown: sql<string | null>`${sql.ref(`${alias}.${name}`)}`,
    naming: sql`left join ${sql.table(table)} ${sql.raw(alias)} on ${sql.ref(`${alias}.id`)} = ${column}`,
  });
  switch (key) {
    case 'day':
      return period('day', 'YYYY-MM-DD');
    case 'week':
      return period('week', 'IYYY-"W"IW');
    case 'month':
      return period('month', 'YYYY-MM');
    case 'member':
      return named('a.member_id', 'members', 'm', 'display_name');
    case 'project':
      return named('a.project_id', 'projects', 'p', 'key');
    case 'customer':
      return named('a.customer_id', 'organizations', 'o', 'name');
    case 'ticket':
      return named('a.ticket_id', 'tickets', 't', 'key');
    case 'tag':
      return { grouped: sql.ref('tg.tg'), shown: sql<string | null>`${column}` };
  }
}

interface Totals {
  seconds: number;
  billable_seconds: number;
  activities: number;
  amounts: Map<string, number> | null;
}

const emptyTotals = (billing: boolean): Totals => ({ seconds: 0, billable_seconds: 0, activities: 0, amounts: billing ? new Map() : null });

function presentTotals(totals: Totals) {
  return {
    seconds: totals.seconds,
    billable_seconds: totals.billable_seconds,
    activities: totals.activities,
    amounts:
      totals.amounts === null
        ? null
        : [...totals.amounts].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount: amount.toFixed(2) })),
  };
}

interface PhaseRow {
  id: string;
  name: string;
  project_id: string | null;
  customer_id: string | null;
  start_date: string;
  end_date: string;
  rate: string | null;
  currency: string | null;
}

/**
 * The phase time falls in: the phase of its project covering its day, else the phase of its
 * customer with no project (as `lockedSql` reads it); the newest start first.
 */
function phaseOf(phases: readonly PhaseRow[], projectId: string | null, customerId: string | null, day: string): PhaseRow | null {
  const covering = phases.filter((p) => p.start_date <= day && day <= p.end_date);
  return (
    covering.find((p) => p.project_id !== null && p.project_id === projectId) ??
    covering.find((p) => p.project_id === null && p.customer_id !== null && p.customer_id === customerId) ??
    null
  );
}

/**
 * GET /reports/hours: finished activities the member may see, between two days of a zone (this
 * month when left out), in groups of up to two keys, with seconds, billable seconds, how many,
 * and — where the member may see billing — amounts at the rates of the phases they fall in.
 * Running activities are not counted until they stop. With `tag`, an activity with several tags
 * counts once in each of their groups; `total` counts it once.
 *
 * The database sums per group, project, customer and day (a few thousand rows for a year); the
 * phases (a handful) are matched to those sums here, so no activity row looks its phase up.
 */
export async function reportHours(ctx: Context, query: ActivityFilters & { phase?: string; group_by?: string }): Promise<HoursReport> {
  const keys = groupKeys(query.group_by);
  const zone = (await resolveFilters(ctx, { timezone: query.timezone })).zone;
  const today = await localDay(ctx, ctx.now().toISOString(), zone);
  const from = query.from ?? `${today.slice(0, 7)}-01`;
  const to = query.to ?? lastDayOfMonth(query.from ?? today);
  if (to < from) throw invalid('/to', `${to} is before from (${from})`);
  const filters = await resolveFilters(ctx, { ...query, from, to });

  // only phases the member may see are named, matched or listed when a name misses
  const visiblePhase = await phaseVisibility(ctx);
  const phases = (
    await sql<PhaseRow>`select id, name, project_id, customer_id, start_date::text, end_date::text, rate::text, currency from phases order by start_date desc, id`.execute(
      ctx.db,
    )
  ).rows.filter(visiblePhase);
  const naming = { pointer: '/phase', what: 'phase', names: (p: PhaseRow) => [p.name, p.id] };
  const onlyPhase = query.phase === undefined ? null : resolveName(phases, query.phase, naming);
  const billing = await billingScope(ctx);
  const sqlKeys = keys.filter((k): k is Exclude<GroupBy, 'phase'> => k !== 'phase');
  const byTag = keys.includes('tag');

  let base = (await filteredActivities(ctx, filters)).where('a.ended_at', 'is not', null);
  if (onlyPhase) {
    base = base.where(
      sql<boolean>`(a.started_at at time zone 'UTC')::date between ${onlyPhase.start_date}::date and ${onlyPhase.end_date}::date`,
    );
    base = onlyPhase.project_id
      ? base.where('a.project_id', '=', onlyPhase.project_id)
      : base.where('a.customer_id', '=', onlyPhase.customer_id);
  }
  const grouped = sqlKeys.map((key) => ({ key, ...keySql(key, zone) }));
  const utcDay = sql`(a.started_at at time zone 'UTC')::date`;
  const summing = base
    .$if(byTag, (q) =>
      // a function's one column is named after its alias: tg.tg is the tag
      q.leftJoin(
        sql<{ tg: string | null }>`lateral unnest(case when cardinality(a.tags) = 0 then array[null]::text[] else a.tags end)`.as(
          'tg',
        ) as never,
        (join) => join.onTrue(),
      ),
    )
    .select(grouped.map((g) => g.grouped.as(`g_${g.key}`)))
    .select([
      'a.project_id',
      'a.customer_id',
      utcDay.as('utc_day'),
      (byTag ? sql<string>`count(distinct a.id)` : sql<string>`count(*)`).as('activities'),
      sql<string>`sum(a.seconds)`.as('seconds'),
      sql<string>`coalesce(sum(a.seconds) filter (where a.billable), 0)`.as('billable_seconds'),
    ])
    .groupBy([...grouped.map((g) => g.grouped), 'a.project_id', 'a.customer_id', utcDay]);
  const named = sql`
    select ${sql.join([...grouped.map((g) => sql`${g.shown} as ${sql.ref(`k_${g.key}`)}`), sql`g.project_id, g.customer_id, g.utc_day::text as utc_day, g.activities, g.seconds, g.billable_seconds`])}
    from (${summing}) g ${sql.join(
      grouped.flatMap((g) => (g.naming ? [g.naming] : [])),
      sql` `,
    )}`;
  // The planner expects far more groups than a year holds (it multiplies the keys' counts) and,
  // within the default 4 MB, sorts 100,000 rows on disk; with room it hashes them, 5× faster.
  const rows = (
    await ctx.db.transaction().execute(async (trx) => {
      await sql`set local work_mem = '32MB'`.execute(trx);
      return named.execute(trx);
    })
  ).rows as (Record<string, string | null> & { project_id: string | null; customer_id: string | null; utc_day: string })[];

  const groups = new Map<string, { key: Record<string, string | null>; totals: Totals }>();
  const total = emptyTotals(billing.any);
  for (const row of rows) {
    const phase = phaseOf(phases, row.project_id, row.customer_id, row.utc_day);
    if (onlyPhase && phase?.id !== onlyPhase.id) continue;
    const key = Object.fromEntries(keys.map((k) => [k, k === 'phase' ? (phase?.name ?? null) : (row[`k_${k}`] ?? null)]));
    const id = JSON.stringify(keys.map((k) => key[k]));
    const group = groups.get(id) ?? { key, totals: emptyTotals(billing.any) };
    groups.set(id, group);
    const seconds = Number(row.seconds);
    const billable = Number(row.billable_seconds);
    const count = Number(row.activities);
    group.totals.seconds += seconds;
    group.totals.billable_seconds += billable;
    group.totals.activities += count;
    if (!byTag) {
      total.seconds += seconds;
      total.billable_seconds += billable;
      total.activities += count;
    }
    if (phase?.rate != null && phase.currency && maySeeBilling(billing, phase.project_id)) {
      const amount = (billable / 3600) * Number(phase.rate);
      group.totals.amounts?.set(phase.currency, (group.totals.amounts.get(phase.currency) ?? 0) + amount);
      if (!byTag) total.amounts?.set(phase.currency, (total.amounts.get(phase.currency) ?? 0) + amount);
    }
  }
  if (byTag) {
    // the total counts each activity once, whatever its tags
    const overall = await reportHours(ctx, { ...query, from, to, group_by: undefined });
    Object.assign(total, {
      seconds: overall.total.seconds,
      billable_seconds: overall.total.billable_seconds,
      activities: overall.total.activities,
      amounts: overall.total.amounts === null ? null : new Map(overall.total.amounts.map((a) => [a.currency, Number(a.amount)])),
    });
  }

  const ordered = [...groups.values()].sort((x, y) => {
    for (const k of keys) {
      const a = x.key[k] ?? '\uffff';
      const b = y.key[k] ?? '\uffff';
      if (a !== b) return a < b ? -1 : 1;
    }
    return 0;
  });
  return {
    from,
    to,
    timezone: zone,
    group_by: keys,
    total: presentTotals(total),
    groups: ordered.map((g) => ({ key: g.key, ...presentTotals(g.totals) })),
  };
}

function lastDayOfMonth(day: string): string {
  const next = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return new Date(next.getTime() - 86_400_000).toISOString().slice(0, 10);
}
