import { afterAll, beforeAll, describe, it } from 'vitest';
import { registry } from '../../src/modules/index.ts';
import { EXTREME_DATES, EXTREME_ZONES, fuzzOperations, type FuzzTarget } from '../helpers/fuzz.ts';
import { startTestService } from '../helpers/service.ts';

// Every time-tracking operation fuzzed through REST and MCP on the demo workspace, with the
// dates at and past the edges of the years 0001–9999, blank names and deep input: never a 5xx,
// and a refused change changes nothing. FUZZ_SEED=<n> replays a run; FUZZ_CASES=<n> sets the
// cases per operation and door.

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES = Number(process.env.FUZZ_CASES ?? 12);

let target: FuzzTarget;

beforeAll(async () => {
  const service = await startTestService({ workspace: '../../examples/demo-workspace.yaml', rateLimit: 1_000_000 });
  const token = await service.token('admin@example.com', 'write', 'fuzzer');
  const start = (body: unknown) => service.request('POST', '/api/v1/activities', { token, body });
  const ids = [
    (await start({ start: '2026-11-16T09:00:00Z', duration: '1h', project: 'ATR', customer: 'Northwind Traders', tags: ['review'] })).body.id,
    (await start({ start: '2026-11-17T09:00:00Z', ticket: 'ATR-2' })).body.id,
  ];
  const others = await service.request('GET', '/api/v1/activities?member=Marco%20Rossi&limit=5', { token });
  const days = ['2026-11-01', '2026-11-30', ...EXTREME_DATES];
  target = {
    service,
    token,
    hints: {
      id: [...ids, ...others.body.activities.map((a: { id: string }) => a.id)],
      project: ['ATR', 'HELP', null, ''],
      customer: ['Northwind Traders', 'Contoso Health', null, ''],
      ticket: ['ATR-1', 'ATR-2', 'HELP-1', null],
      member: ['me', 'Marco Rossi', 'Lena Fischer'],
      phase: ['Northwind 2026 Q4', 'Contoso onboarding', 'Northwind 2026 Q3'],
      start: ['2026-11-18T09:00:00Z', '2026-11-18T09:00', '2026-11-18', ...EXTREME_DATES],
      end: ['2026-11-18T10:00:00Z', '10:30', '2026-11-18T17:00', ...EXTREME_DATES],
      duration: ['1h', '30m', '2d', '0m', '999999h'],
      timezone: ['Europe/Berlin', 'America/New_York', ...EXTREME_ZONES],
      from: days,
      to: days,
      group_by: ['day', 'project,member', 'phase', 'tag,week', 'month'],
      tag: ['review', 'meeting'],
      tags: [['review'], []],
    },
  };
}, 120_000);
afterAll(() => target?.service.close());

describe(`fuzz: every time-tracking operation, REST and MCP, ${CASES} cases each (seed ${SEED})`, () => {
  fuzzOperations({ title: 'time', operations: registry.operations.filter((op) => op.module === 'time'), cases: CASES, seed: SEED, target: () => target }, it);
});
