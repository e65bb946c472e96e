import { sql } from 'kysely';
import type { Scenario } from './scenario.ts';

const PROJECT = 'ATR';

/** Two reads: who am I, and one project with its vocabulary and assignable people. */
export const scenarios: Scenario[] = [
  {
    name: 'GET /api/v1/me',
    request: () => ({ method: 'GET', path: '/api/v1/me' }),
    baseline: (db, env) => sql`select id, display_name as name from members where id = ${env.memberId}`.execute(db).then((r) => r.rows[0]),
    target: { ofBaseline: 0.6, pgliteWithin: 3 },
  },
  {
    name: `GET /api/v1/projects/${PROJECT}`,
    request: () => ({ method: 'GET', path: `/api/v1/projects/${PROJECT}` }),
    baseline: (db) =>
      sql`select id, key, name, kind, description from projects where upper(key) = ${PROJECT}`.execute(db).then((r) => r.rows[0]),
    target: { ofBaseline: 0.5, pgliteWithin: 3 },
  },
];
