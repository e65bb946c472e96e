import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { daySpan } from '../../core/moments.ts';
import { refuseBlank } from '../../core/names.ts';
import { resolvePerson } from '../../core/people.ts';
import { toTimestamp } from '../../core/time.ts';
import { loadActivity } from './activities.ts';
import { customerNamed, projectNamed, ticketNamed } from './links.ts';
import { billingScope, maySeeBilling, othersVisibleIn, phaseVisibility } from './policy.ts';
import { presentActivity } from './present.ts';
import { activityRows, selectActivity, type ActivityRow } from './repo.ts';
import type { ActivityDetail, ActivityList, OrganizationList, PhaseList } from './schemas.ts';
import { listZone } from './zoned.ts';

export async function getActivity(ctx: Context, id: string): Promise<ActivityDetail> {
  const row = await loadActivity(ctx, id);
  const history = await ctx.db
    .selectFrom('history as h')
    .leftJoin('members as m', 'm.id', 'h.actor_id')
    .select(['h.kind', 'h.at', 'h.actor_id', 'm.display_name', 'h.via', 'h.changes'])
    .where('h.entity_type', '=', 'activity')
    .where('h.entity_id', '=', row.id)
    .orderBy('h.at')
    .orderBy('h.id')
    .execute();
  return {
    ...presentActivity(row),
    history: history.map((h) => ({
      kind: h.kind,
      at: toTimestamp(h.at),
      actor: h.actor_id ? { id: h.actor_id, name: h.display_name ?? 'Former member' } : null,
      via: h.via,
      changes: h.changes,
    })),
  };
}

/** The filters lists and the hours report share: dates in a zone, links, and whose time. */
export interface ActivityFilters {
  from?: string;
  to?: string;
  timezone?: string;
  project?: string;
  customer?: string;
  ticket?: string;
  member?: string;
}

export interface ResolvedFilters {
  zone: string;
  /** UTC instants of the zone's midnights: from's start, the day after to's start. */
  fromAt: string | null;
  toAt: string | null;
  projectId?: string;
  customerId?: string;
  ticketId?: string;
  memberId?: string;
}

export async function resolveFilters(ctx: Context, query: ActivityFilters): Promise<ResolvedFilters> {
  const zone = await listZone(ctx, query.timezone);
  if (query.from && query.to && query.to < query.from) throw invalidRange(query.from, query.to);
  const [fromAt, toAt] = await daySpan(ctx.db, query.from ?? null, query.to ?? null, zone);
  const resolved: ResolvedFilters = { zone, fromAt, toAt };
  if (query.project !== undefined) resolved.projectId = (await projectNamed(ctx, query.project)).id;
  if (query.customer !== undefined) resolved.customerId = (await customerNamed(ctx, query.customer)).id;
  if (query.ticket !== undefined) resolved.ticketId = (await ticketNamed(ctx, query.ticket)).id;
  if (query.member !== undefined) resolved.memberId = (await resolvePerson(ctx, query.member, '/member')).id;
  return resolved;
}

function invalidRange(from: string, to: string) {
  return invalid('/to', `${to} is before from (${from})`);
}

/** SQL conditions of the filters, and of what the member may see: their own, or others' where they hold time:view_all. */
export async function filteredActivities(ctx: Context, filters: ResolvedFilters) {
  const others = await othersVisibleIn(ctx);
  let query = activityRows(ctx.db).where('a.deleted_at', 'is', null);
  if (filters.fromAt) query = query.where('a.started_at', '>=', filters.fromAt);
  if (filters.toAt) query = query.where('a.started_at', '<', filters.toAt);
  if (filters.projectId) query = query.where('a.project_id', '=', filters.projectId);
  if (filters.customerId) query = query.where('a.customer_id', '=', filters.customerId);
  if (filters.ticketId) query = query.where('a.ticket_id', '=', filters.ticketId);
  if (filters.memberId) query = query.where('a.member_id', '=', filters.memberId);
  if (others !== null) {
    const projects = [...others];
    query = query.where((eb) =>
      eb.or([eb('a.member_id', '=', ctx.actor.memberId), ...(projects.length ? [eb('a.project_id', 'in', projects)] : [])]),
    );
  }
  return query;
}

export async function listActivities(
  ctx: Context,
  query: ActivityFilters & { tag?: string; running?: boolean; limit?: number; offset?: number },
): Promise<ActivityList> {
  const filters = await resolveFilters(ctx, query);
  const limit = query.limit ?? 20;
  const offset = query.offset ?? 0;
  let rows = selectActivity(await filteredActivities(ctx, filters));
  if (query.tag !== undefined) {
    refuseBlank(query.tag, '/tag');
    rows = rows.where(sql<boolean>`${query.tag.trim()} = any(a.tags)`);
  }
  if (query.running !== undefined) rows = rows.where('a.ended_at', query.running ? 'is' : 'is not', null);
  const found = (await rows.orderBy('a.started_at', 'desc').orderBy('a.id').limit(limit).offset(offset).execute()) as ActivityRow[];
  return { activities: found.map(presentActivity), limit, offset, timezone: filters.zone };
}

export async function listOrganizations(ctx: Context): Promise<OrganizationList> {
  const rows = await ctx.db.selectFrom('organizations').select(['id', 'name', 'domains']).orderBy(sql`lower(name)`).orderBy('id').execute();
  return { organizations: rows };
}

/** GET /phases: billing periods the member may see (phaseVisibility), newest first; rates only with time:billing. */
export async function listPhases(ctx: Context, customer: string | undefined): Promise<PhaseList> {
  const [visible, billing] = await Promise.all([phaseVisibility(ctx), billingScope(ctx)]);
  let query = ctx.db
    .selectFrom('phases as ph')
    .leftJoin('contracts as c', 'c.id', 'ph.contract_id')
    .leftJoin('organizations as o', 'o.id', 'ph.customer_id')
    .leftJoin('projects as p', 'p.id', 'ph.project_id')
    .select([
      'ph.id',
      'ph.name',
      sql<string>`to_char(ph.start_date, 'YYYY-MM-DD')`.as('start_date'),
      sql<string>`to_char(ph.end_date, 'YYYY-MM-DD')`.as('end_date'),
      'c.id as contract_id',
      'c.name as contract_name',
      'o.name as customer',
      'p.key as project',
      'ph.project_id',
      sql<string | null>`ph.rate::text`.as('rate'),
      'ph.currency',
      'ph.max_days_available',
      sql<string>`trim_scale(ph.hours_per_day)::text`.as('hours_per_day'),
    ]);
  if (customer !== undefined) query = query.where('ph.customer_id', '=', (await customerNamed(ctx, customer)).id);
  const rows = (await query.orderBy('ph.start_date', 'desc').orderBy('ph.name').execute()).filter(visible);
  return {
    phases: rows.map((r) => {
      const billable = maySeeBilling(billing, r.project_id);
      return {
        id: r.id,
        name: r.name,
        start_date: r.start_date,
        end_date: r.end_date,
        contract: r.contract_id ? { id: r.contract_id, name: r.contract_name! } : null,
        customer: r.customer,
        project: r.project,
        rate: billable ? r.rate : null,
        currency: billable ? r.currency : null,
        max_days_available: r.max_days_available,
        hours_per_day: r.hours_per_day,
      };
    }),
  };
}
