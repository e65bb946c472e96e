import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/storage/schema.ts';
import type { Scenario } from './scenario.ts';

const ACTIVITIES = 100_000;
/** The acting member's month: March 2026 in Berlin holds this many of their activities. */
const MONTH = 2_000;

/**
 * 100,000 finished activities over 2026 in ATR and OPS, spread over the developers, of which
 * 2,000 are the bench agent's in March (Berlin time). Idempotent across runs.
 */
async function seedActivities(db: Kysely<DB>, env: { memberId: string }): Promise<Record<string, string>> {
  await db.updateTable('members').set({ timezone: 'Europe/Berlin' }).where('id', '=', env.memberId).execute();
  const { count } = (await sql<{ count: number }>`select count(*)::int as count from activities`.execute(db)).rows[0]!;
  if (count >= ACTIVITIES) return {};
  await sql`
    with people as (select array_agg(id order by email) as ids from members where email like 'dev%@bench.example'),
         places as (select array_agg(id order by key) as ids from projects where key in ('ATR', 'OPS')),
         customers as (select array_agg(id order by name) as ids from organizations)
    insert into activities (member_id, description, started_at, ended_at, tags, project_id, customer_id, billable)
    select people.ids[1 + n % array_length(people.ids, 1)],
           'Work item ' || n,
           timestamptz '2026-01-01 08:00:00+00' + make_interval(hours => (n * 7) % 8760),
           timestamptz '2026-01-01 08:00:00+00' + make_interval(hours => (n * 7) % 8760, mins => 15 + n % 180),
           case when n % 3 = 0 then array['dev'] when n % 3 = 1 then array['review', 'dev'] else array[]::text[] end,
           places.ids[1 + n % 2], customers.ids[1 + n % 2], n % 5 <> 0
    from people, places, customers, generate_series(0, ${ACTIVITIES - MONTH - 1}) n
  `.execute(db);
  await sql`
    with places as (select array_agg(id order by key) as ids from projects where key in ('ATR', 'OPS'))
    insert into activities (member_id, description, started_at, ended_at, tags, project_id, billable)
    select ${env.memberId}::uuid, 'My work ' || n,
           timestamptz '2026-03-01 00:00:00+01' + make_interval(mins => n * 21),
           timestamptz '2026-03-01 00:00:00+01' + make_interval(mins => n * 21 + 20),
           array['dev'], places.ids[1 + n % 2], true
    from places, generate_series(0, ${MONTH - 1}) n
  `.execute(db);
  await sql`analyze activities`.execute(db);
  return {};
}

export const scenarios: Scenario[] = [
  {
    name: "GET /api/v1/activities (a member's month of 2,000, first 100, Berlin time)",
    seed: seedActivities,
    request: () => ({ method: 'GET', path: '/api/v1/activities?member=me&from=2026-03-01&to=2026-03-31&limit=100' }),
    baseline: (db, env) =>
      sql`
        select a.*, p.key, p.name, m.display_name from activities a
        join members m on m.id = a.member_id left join projects p on p.id = a.project_id
        where a.member_id = ${env.memberId} and a.deleted_at is null
          and a.started_at >= timestamptz '2026-03-01 00:00:00+01' and a.started_at < timestamptz '2026-04-01 00:00:00+02'
        order by a.started_at desc limit 100
      `.execute(db),
  },
  {
    name: 'GET /api/v1/reports/hours (100,000 activities of 2026 by project and week)',
    request: () => ({ method: 'GET', path: '/api/v1/reports/hours?from=2026-01-01&to=2026-12-31&timezone=UTC&group_by=project,week' }),
    baseline: (db) =>
      sql`
        select p.key, to_char(a.started_at at time zone 'UTC', 'IYYY-"W"IW') as week, count(*),
               sum(extract(epoch from a.ended_at - a.started_at))::bigint
        from activities a left join projects p on p.id = a.project_id
        where a.deleted_at is null and a.ended_at is not null
          and a.started_at >= timestamptz '2026-01-01 00:00:00+00' and a.started_at < timestamptz '2027-01-01 00:00:00+00'
        group by 1, 2
      `.execute(db),
  },
];
