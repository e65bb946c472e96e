import { sql } from 'kysely';
import { FULL_SIZE, generateData, progressBar, type DataSize } from '../generate-data.ts';
import type { Scenario } from './scenario.ts';

// The tickets scenarios, on the large data set (bench/generate-data.ts: 100,000 tickets, 20 projects,
// 500 members, 300,000 comments, 50,000 worklogs), generated once per database by the first seed.
const TICKET = 'ATR-1234';

/** The full data set, or a smaller one of BENCH_TICKETS tickets (bench/run.ts --tickets) with comments and worklogs in proportion. */
function dataSize(): DataSize {
  const tickets = Number(process.env.BENCH_TICKETS ?? FULL_SIZE.tickets);
  const scale = tickets / FULL_SIZE.tickets;
  return { ...FULL_SIZE, tickets, comments: Math.round(FULL_SIZE.comments * scale), worklogs: Math.round(FULL_SIZE.worklogs * scale) };
}
const LOOP_PROJECT = `P${String(FULL_SIZE.projects - 1).padStart(2, '0')}`;
const LOOP_TICKET = `${LOOP_PROJECT}-1`;
/** How many of the loop project's open tickets the transitions-across-tickets scenario takes in turn. */
const ACROSS = 1000;

export const scenarios: Scenario[] = [
  {
    name: `GET /api/v1/tickets/${TICKET}`,
    seed: async (db) => {
      await generateData(db, dataSize(), progressBar());
      return {};
    },
    request: () => ({ method: 'GET', path: `/api/v1/tickets/${TICKET}` }),
    baseline: (db) => sql`select * from tickets where key = ${TICKET}`.execute(db).then((r) => r.rows[0]),
    target: { ofBaseline: 0.5, p99BelowMs: 20, pgliteWithin: 3 },
  },
  {
    name: 'GET /api/v1/tickets?query=pay (one-word prefix)',
    request: () => ({ method: 'GET', path: '/api/v1/tickets?query=pay' }),
    baseline: (db) =>
      sql`select id from tickets where search_vector @@ to_tsquery('simple', 'pay:*') limit 20`.execute(db).then((r) => r.rows),
    target: { ofBaseline: 0.25, p95BelowMs: 50, pgliteWithin: 3 },
  },
  {
    // A word in half the tickets, searched in one project (5 % of them). Written with `@@`, this
    // read is planned through the search index, which first hands over all 48,000 tickets holding
    // the word (30 ms); the baseline reads the project's rows as the service does (word-frequencies.ts).
    name: 'GET /api/v1/tickets?query=pay&project=ATR (one-word prefix in one project)',
    request: () => ({ method: 'GET', path: '/api/v1/tickets?query=pay&project=ATR' }),
    baseline: (db) =>
      sql`select t.id from tickets t
          where t.project_id = (select id from projects where key = 'ATR') and ts_match_vq(t.search_vector, to_tsquery('simple', 'pay:*'))
          limit 20`
        .execute(db)
        .then((r) => r.rows),
  },
  {
    name: 'GET /api/v1/tickets?project=ATR&status=open&sort=updated',
    request: () => ({ method: 'GET', path: '/api/v1/tickets?project=ATR&status=open&sort=updated' }),
    baseline: (db) =>
      sql`select t.id from tickets t join projects p on p.id = t.project_id where p.key = 'ATR'
          order by t.updated_at desc limit 20`
        .execute(db)
        .then((r) => r.rows),
    target: { ofBaseline: 0.5, pgliteWithin: 3 },
  },
  {
    name: 'POST /api/v1/tickets',
    request: () => ({ method: 'POST', path: '/api/v1/tickets', body: { project: 'OPS', summary: 'Bench ticket', labels: ['backend'] } }),
    target: { perSecond: 250 },
  },
  {
    name: 'POST /api/v1/tickets (20 projects in turn)',
    seed: async (db) => {
      const projects = await db.selectFrom('projects').select('key').orderBy('position').execute();
      return { projectKeys: projects.map((p) => p.key).join(',') };
    },
    request: (env) => ({
      method: 'POST',
      path: '/api/v1/tickets',
      bodies: env.projectKeys!.split(',').map((project) => ({ project, summary: 'Bench ticket', labels: ['backend'] })),
    }),
    target: { perSecond: 500 },
  },
  {
    name: `POST /api/v1/tickets/${LOOP_TICKET}/transitions`,
    request: () => ({ method: 'POST', path: `/api/v1/tickets/${LOOP_TICKET}/transitions`, body: { transition: 'Touch' } }),
  },
  {
    // transitions spread over many tickets, each taken by one request at a time (a target, ADR 0046)
    name: `POST /api/v1/tickets/{${LOOP_PROJECT}-n}/transitions (${ACROSS} tickets in turn)`,
    seed: async (db) => {
      const open = await sql<{ key: string }>`
        select t.key from tickets t join projects p on p.id = t.project_id join statuses s on s.id = t.status_id
        where p.key = ${LOOP_PROJECT} and s.name = 'Open' order by t.number limit ${ACROSS}
      `.execute(db);
      return { openLoopKeys: open.rows.map((r) => r.key).join(',') };
    },
    request: (env) => {
      const paths = env.openLoopKeys!.split(',').map((key) => `/api/v1/tickets/${key}/transitions`);
      return { method: 'POST', path: paths[0]!, paths, body: { transition: 'Touch' } };
    },
    target: { perSecond: 300 },
  },
  {
    name: `POST /api/v1/tickets/${LOOP_TICKET}/worklogs`,
    request: () => ({ method: 'POST', path: `/api/v1/tickets/${LOOP_TICKET}/worklogs`, body: { time_spent_seconds: 60 } }),
  },
  {
    // the transitions' tickets above, one worklog each in turn
    name: `POST /api/v1/tickets/{${LOOP_PROJECT}-n}/worklogs (${ACROSS} tickets in turn)`,
    request: (env) => {
      const paths = env.openLoopKeys!.split(',').map((key) => `/api/v1/tickets/${key}/worklogs`);
      return { method: 'POST', path: paths[0]!, paths, body: { time_spent_seconds: 60 } };
    },
  },
  {
    name: `POST /api/v1/tickets/${TICKET}/comments`,
    request: () => ({
      method: 'POST',
      path: `/api/v1/tickets/${TICKET}/comments`,
      body: { body: 'Bench comment with @nobody and `code`' },
    }),
    target: { perSecond: 500 },
  },
];
