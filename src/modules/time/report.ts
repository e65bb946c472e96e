import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { resolveName } from '../../core/names.ts';
import { billingScope, maySeeBilling } from './policy.ts';
import { filteredActivities, resolveFilters, type ActivityFilters } from './read.ts';
import { GROUP_BY, type GroupBy, type HoursReport } from './schemas.ts';
import { localDay } from './zoned.ts';

function groupKeys(given: string | undefined): GroupBy[] {
  if (given === undefined || given.trim() === '') return [];
  const keys = given.split(',').map((k) => k.trim().toLowerCase());
  for (const key of keys) {
    if (!(GROUP_BY as readonly string[]).includes(key)) throw invalid('/group_by', `"${key}" is not a grouping; group_by takes ${GROUP_BY.join(', ')}`);
  }
  if (new Set(keys).size !== keys.length) throw invalid('/group_by', 'names a grouping twice');
  if (keys.length > 2) throw invalid('/group_by', 'takes at most two groupings');
  return keys as GroupBy[];
}

/** What each grouping reads (the activity `a`, its links `m`/`p`/`o`/`t`, its tag `tg.tg`, its phase `ph`), in the report's zone. */
function keySql(key: GroupBy, zone: string): RawBuilder<string | null> {
  switch (key) {
    case 'day':
      return sql`to_char(a.started_at at time zone ${zone}, 'YYYY-MM-DD')`;
    case 'week':
      return sql`to_char(a.started_at at time zone ${zone}, 'IYYY-"W"IW')`;
    case 'month':
      return sql`to_char(a.started_at at time zone ${zone}, 'YYYY-MM')`;
    case 'member':
      return sql`m.display_name`;
    case 'project':
      return sql`p.key`;
    case 'customer':
      return sql`o.name`;
    case 'ticket':
      return sql`t.key`;
    case 'tag':
      return sql`tg.tg`;
    case 'phase':
      return sql`ph.name`;
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
    amounts: totals.amounts === null ? null : [...totals.amounts].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount: amount.toFixed(2) })),
  };
}

/**
 * GET /reports/hours: finished activities the member may see, between two days of a zone (this
 * month when left out), in groups of up to two keys, with seconds, billable seconds, how many,
 * and — where the member may see billing — amounts at the rates of the phases they fall in.
 * Running activities are not counted until they stop. With `tag`, an activity with several tags
 * counts once in each of their groups; `total` counts it once.
 */
export async function reportHours(ctx: Context, query: ActivityFilters & { phase?: string; group_by?: string }): Promise<HoursReport> {
  const keys = groupKeys(query.group_by);
  const filters = await resolveFilters(ctx, query);
  const zone = filters.zone;
  const today = await localDay(ctx, ctx.now().toISOString(), zone);
  const from = query.from ?? `${today.slice(0, 7)}-01`;
  const to = query.to ?? lastDayOfMonth(query.from ?? today);
  if (to < from) throw invalid('/to', `${to} is before from (${from})`);
  if (!query.from || !query.to) Object.assign(filters, await resolveFilters(ctx, { ...query, from, to }));

  let phaseId: string | null = null;
  if (query.phase) {
    const phases = await ctx.db.selectFrom('phases').select(['id', 'name']).orderBy('name').execute();
    phaseId = resolveName(phases, query.phase, { pointer: '/phase', what: 'phase', names: (p) => [p.name, p.id] }).id;
  }
  const billing = await billingScope(ctx);
  const selected = keys.map((key, i) => keySql(key, zone).as(`k${i}`));

  const rows = await (await filteredActivities(ctx, filters))
    .innerJoin('members as m', 'm.id', 'a.member_id')
    .leftJoin('projects as p', 'p.id', 'a.project_id')
    .leftJoin('organizations as o', 'o.id', 'a.customer_id')
    .leftJoin('tickets as t', 't.id', 'a.ticket_id')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('phases as ph')
          .select(['ph.id', 'ph.name', 'ph.rate', 'ph.currency', 'ph.project_id', 'ph.start_date', 'ph.end_date', 'ph.customer_id'])
          .as('ph'),
      (join) =>
        join.on(
          sql<boolean>`ph.id = (
            select x.id from phases x
            where (a.started_at at time zone 'UTC')::date between x.start_date and x.end_date
              and (x.project_id = a.project_id or (x.project_id is null and x.customer_id = a.customer_id))
            order by x.project_id nulls last, x.start_date desc, x.id limit 1)`,
        ),
    )
    .$if(keys.includes('tag'), (q) =>
      // a function's one column is named after its alias: tg.tg is the tag
      q.leftJoin(sql<{ tg: string | null }>`lateral unnest(case when cardinality(a.tags) = 0 then array[null]::text[] else a.tags end)`.as('tg') as never, (join) => join.onTrue()),
    )
    .$if(phaseId !== null, (q) => q.where('ph.id', '=', phaseId!))
    .where('a.ended_at', 'is not', null)
    .select(selected)
    .select([
      'ph.project_id as phase_project_id',
      sql<string | null>`ph.rate::text`.as('rate'),
      'ph.currency',
      sql<string>`count(distinct a.id)`.as('activities'),
      sql<string>`coalesce(sum(extract(epoch from a.ended_at - a.started_at)), 0)::bigint`.as('seconds'),
      sql<string>`coalesce(sum(extract(epoch from a.ended_at - a.started_at)) filter (where a.billable), 0)::bigint`.as('billable_seconds'),
    ])
    .groupBy([...keys.map((_, i) => sql.ref(`k${i}`)), 'ph.id', 'ph.project_id', 'ph.rate', 'ph.currency'])
    .execute();

  const groups = new Map<string, { key: Record<string, string | null>; totals: Totals }>();
  const total = emptyTotals(billing.any);
  for (const row of rows as unknown as Record<string, string | null>[]) {
    const key = Object.fromEntries(keys.map((k, i) => [k, row[`k${i}`] ?? null]));
    const id = JSON.stringify(keys.map((k) => key[k]));
    const group = groups.get(id) ?? { key, totals: emptyTotals(billing.any) };
    groups.set(id, group);
    const seconds = Number(row.seconds);
    const billable = Number(row.billable_seconds);
    group.totals.seconds += seconds;
    group.totals.billable_seconds += billable;
    group.totals.activities += Number(row.activities);
    if (row.rate !== null && row.currency && maySeeBilling(billing, row.phase_project_id ?? null)) {
      const amount = (billable / 3600) * Number(row.rate);
      for (const totals of [group.totals, total]) totals.amounts?.set(row.currency, (totals.amounts.get(row.currency) ?? 0) + amount);
    }
  }
  // the total counts each activity once, whatever its tags
  const overall = keys.includes('tag') ? await reportHours(ctx, { ...query, from, to, group_by: keys.filter((k) => k !== 'tag').join(',') }) : null;
  if (overall) Object.assign(total, { seconds: overall.total.seconds, billable_seconds: overall.total.billable_seconds, activities: overall.total.activities });
  else {
    for (const group of groups.values()) {
      total.seconds += group.totals.seconds;
      total.billable_seconds += group.totals.billable_seconds;
      total.activities += group.totals.activities;
    }
  }
  if (overall?.total.amounts && total.amounts) total.amounts = new Map(overall.total.amounts.map((a) => [a.currency, Number(a.amount)]));

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
