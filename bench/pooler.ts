// npm run bench:pooler [-- --tickets 20000 --rounds 2 --duration 8 --warmup 2 --connections 16 --only comments
//                          --pgbouncer /usr/sbin/pgbouncer --pgbouncer-prepared /opt/pgbouncer-1.25/bin/pgbouncer]
// The read and write paths through PgBouncer in transaction mode beside the same requests straight
// to PostgreSQL (docs/operations.md, "Scaling out"), on one seeded database, one service process
// per way of reaching it, all listening at once:
// - direct, statements named (DATABASE_URL to PostgreSQL: the default);
// - direct, statements unnamed (DATABASE_POOLER=transaction to PostgreSQL itself): what unnamed costs alone;
// - PgBouncer passing names through (Debian 12's 1.18, or max_prepared_statements = 0): unnamed;
// - PgBouncer keeping prepared statements (1.21 and later, max_prepared_statements = 200): named.
// The last needs a PgBouncer of 1.21 or later: --pgbouncer when it is one, or --pgbouncer-prepared.
// Each round loads every scenario on every setup in turn (reads first, the setups' order rotated
// each round); figures are the rounds' lowest and highest.
import { parseArgs } from 'node:util';
import { openDatabase, type DatabaseTarget } from '../src/storage/database.ts';
import { cpuMsOf, postgresCpuMs, startChild } from './lib/child.ts';
import { load, type LoadSettings } from './lib/load.ts';
import { loadScenarios, readsFirst, scenariosNamed } from './lib/load-scenarios.ts';
import { unclaimedNodeNote } from './lib/node-release.ts';
import { keepsPrepared, pgbouncerVersion, startPgBouncer, type PgBouncer } from './lib/pgbouncer.ts';
import { machine } from './lib/report.ts';
import { seedTarget } from './lib/service.ts';
import { postgresAnswers, postgresTarget } from './lib/target.ts';
import type { BenchEnv, Scenario } from './scenarios/scenario.ts';

const SERVICE = new URL('./lib/service-child.js', import.meta.url);

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '2' },
    tickets: { type: 'string', default: '20000' },
    only: { type: 'string' },
    pgbouncer: { type: 'string', default: '/usr/sbin/pgbouncer' },
    'pgbouncer-prepared': { type: 'string' },
  },
});
const settings: LoadSettings = {
  duration: Number(args.duration),
  warmup: Number(args.warmup),
  connections: Number(args.connections),
};
const rounds = Number(args.rounds);

/** A ticket, a filtered list, a comment and a create: the read and write paths of the CPU table. */
const PATHS: ((name: string) => boolean)[] = [
  (name) => /^GET \/api\/v1\/tickets\/[A-Z]+-\d+$/.test(name),
  (name) => name === 'GET /api/v1/tickets?project=ATR&status=open&sort=updated',
  (name) => name.startsWith('POST /api/v1/tickets/') && name.endsWith('/comments'),
  (name) => name === 'POST /api/v1/tickets',
];

interface Setup {
  label: string;
  target: DatabaseTarget;
  bouncer: PgBouncer | null;
}

interface Measured {
  requestsPerSecond: number;
  p99Ms: number;
  failures: number;
  serviceMs: number;
  databaseMs: number | null;
  bouncerMs: number | null;
}

if (!(await postgresAnswers())) throw new Error('PostgreSQL at 127.0.0.1:5432 does not answer');
const all = await loadScenarios();
const scenarios = readsFirst(args.only ? scenariosNamed(all, args.only) : all.filter((s) => PATHS.some((matches) => matches(s.name))));

const database = await postgresTarget();
const direct = (database.target as Extract<DatabaseTarget, { engine: 'postgres' }>).url;
const name = new URL(direct).pathname.slice(1);
const bouncers: PgBouncer[] = [];
const services: { setup: Setup; child: Awaited<ReturnType<typeof startChild<{ url: string; env: BenchEnv }>>> }[] = [];
const notes: string[] = [];
try {
  console.error(`seeding ${args.tickets} tickets`);
  const seeded = await seedTarget(database, { BENCH_TICKETS: args.tickets });

  const through = (bouncer: PgBouncer): DatabaseTarget => ({
    engine: 'postgres',
    url: `${bouncer.url}${name}`,
    pooler: 'transaction',
    directUrl: direct,
  });
  const setups: Setup[] = [
    { label: 'direct, named', target: database.target, bouncer: null },
    {
      label: 'direct, unnamed',
      target: { engine: 'postgres', url: direct, pooler: 'transaction', directUrl: direct },
      bouncer: null,
    },
  ];
  const passing = await startPgBouncer(args.pgbouncer, 0);
  bouncers.push(passing);
  setups.push({ label: `PgBouncer ${passing.version}, unnamed`, target: through(passing), bouncer: passing });
  const preparedBin = args['pgbouncer-prepared'] ?? (keepsPrepared(pgbouncerVersion(args.pgbouncer)) ? args.pgbouncer : null);
  if (preparedBin !== null) {
    const keeping = await startPgBouncer(preparedBin, 200);
    bouncers.push(keeping);
    setups.push({
      label: `PgBouncer ${keeping.version}, named (max_prepared_statements)`,
      target: through(keeping),
      bouncer: keeping,
    });
  } else {
    notes.push(
      `PgBouncer ${passing.version} cannot keep prepared statements (1.21 and later can): ` +
        'give --pgbouncer-prepared a later build to measure that setting too.',
    );
  }

  for (const setup of setups) {
    // what the node decided at open, as a service process on this target decides it
    const opened = await openDatabase(setup.target);
    setup.label += opened.statements === 'named' ? '' : ` [${opened.statements}]`;
    await opened.close();
    services.push({
      setup,
      child: await startChild<{ url: string; env: BenchEnv }>(SERVICE, [JSON.stringify(setup.target), JSON.stringify(seeded.env)]),
    });
  }

  const results = new Map<string, Measured[]>();
  const measure = async (scenario: Scenario, service: (typeof services)[number]) => {
    const { url, env } = service.child.ready;
    const request = scenario.request(env);
    if (settings.warmup > 0) await load(url, request, env.token, { ...settings, duration: settings.warmup, warmup: 0 });
    const before = {
      service: cpuMsOf(service.child.pid),
      database: postgresCpuMs(),
      bouncer: service.setup.bouncer ? cpuMsOf(service.setup.bouncer.pid) : null,
    };
    const figures = await load(url, request, env.token, { ...settings, warmup: 0 });
    const perRequest = (after: number | null, start: number | null) =>
      after === null || start === null ? null : (after - start) / figures.requests;
    const key = `${scenario.name}\u0000${service.setup.label}`;
    results.set(key, [
      ...(results.get(key) ?? []),
      {
        requestsPerSecond: figures.requestsPerSecond,
        p99Ms: figures.p99Ms,
        failures: figures.failures,
        serviceMs: perRequest(cpuMsOf(service.child.pid), before.service) ?? NaN,
        databaseMs: perRequest(postgresCpuMs(), before.database),
        bouncerMs: service.setup.bouncer ? perRequest(cpuMsOf(service.setup.bouncer.pid), before.bouncer) : null,
      },
    ]);
  };
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios) {
      for (let i = 0; i < services.length; i++) {
        const service = services[(i + round) % services.length]!;
        console.error(`round ${round + 1}: ${scenario.name}, ${service.setup.label}`);
        await measure(scenario, service);
      }
    }
  }

  const spread = (values: (number | null)[], digits: number) => {
    const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
    if (known.length === 0) return '–';
    const [low, high] = [Math.min(...known).toFixed(digits), Math.max(...known).toFixed(digits)];
    return low === high ? low : `${low}–${high}`;
  };
  const host = machine();
  console.log(
    `Through a pooler: ${host.cpus} CPUs (${host.cpuModel}), Node.js ${process.version}, ` +
      `load average ${host.loadAverage}; ${args.tickets} tickets; ${settings.connections} connections, ` +
      `${rounds} rounds of ${settings.duration} s after ${settings.warmup} s of warm-up; each node's pool ` +
      "10 connections, each PgBouncer's pool 10 server connections. PostgreSQL's CPU is every postgres " +
      'process on the machine.',
  );
  const nodeNote = unclaimedNodeNote();
  if (nodeNote) console.log(nodeNote);
  for (const note of notes) console.log(note);
  console.log('');
  console.log('| Request | Reaching PostgreSQL | Answered a second | p99 ms | Service ms | PostgreSQL ms | PgBouncer ms ' + '| Failed |');
  console.log('|---|---|--:|--:|--:|--:|--:|--:|');
  for (const scenario of scenarios) {
    for (const { setup } of services) {
      const measured = results.get(`${scenario.name}\u0000${setup.label}`) ?? [];
      const failed = measured.reduce((sum, m) => sum + m.failures, 0);
      console.log(
        `| ${scenario.name} | ${setup.label} | ${spread(
          measured.map((m) => m.requestsPerSecond),
          0,
        )} | ${spread(
          measured.map((m) => m.p99Ms),
          0,
        )} | ${spread(
          measured.map((m) => m.serviceMs),
          2,
        )} | ${spread(
          measured.map((m) => m.databaseMs),
          2,
        )} | ${spread(
          measured.map((m) => m.bouncerMs),
          2,
        )} | ${failed} |`,
      );
    }
  }
} finally {
  for (const { child } of services) await child.stop();
  for (const bouncer of bouncers) await bouncer.stop();
  await database.dispose();
}
