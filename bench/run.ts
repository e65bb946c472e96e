// npm run bench [-- --duration 10 --connections 16 --warmup 2 --only me,board --engine pglite|postgres --tickets 20000 --pglite-shared-buffers 32MB]
// Loads Atrium and a bare Fastify baseline doing the same single SQL read, on PGlite (always) and
// on a fresh PostgreSQL database (when 127.0.0.1:5432 answers), and reports the ratio.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { startChild, type Child } from './lib/child.ts';
import { load, type LoadSettings } from './lib/load.ts';
import { loadScenarios, readsFirst, scenariosNamed } from './lib/load-scenarios.ts';
import { unclaimedNodeNote } from './lib/node-release.ts';
import { seedTarget, startService, type SeededTarget } from './lib/service.ts';
import { appendResults, machine, markdownSection, markdownTable, mib, type Row } from './lib/report.ts';
import type { BenchRequest, Scenario } from './scenarios/scenario.ts';
import { autovacuumNote, pgliteTarget, postgresAnswers, postgresTarget, type BenchTarget } from './lib/target.ts';

const BASELINE = new URL('./lib/baseline-child.ts', import.meta.url);
const RESULTS = new URL('./RESULTS.md', import.meta.url);
const OUT = new URL('./out/', import.meta.url);

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    /** Scenarios whose name contains any of these comma-separated words. */
    only: { type: 'string' },
    /** A smaller data set than the full 100,000 tickets (comments and worklogs scale with it). */
    tickets: { type: 'string' },
    engine: { type: 'string' },
    /** PGlite's shared_buffers for the service (PGLITE_SHARED_BUFFERS), e.g. 32MB; unset keeps PGlite's. */
    'pglite-shared-buffers': { type: 'string' },
    'no-record': { type: 'boolean', default: false },
  },
});

const allScenarios = await loadScenarios();

const settings: LoadSettings = {
  duration: Number(args.duration),
  warmup: Number(args.warmup),
  connections: Number(args.connections),
};

type Figures = NonNullable<Row['baseline']>;

/** One scenario's load on a running server, with that server's peak RSS so far. */
async function measure(server: Child<{ url: string }>, request: BenchRequest, token: string | null): Promise<Figures> {
  const figures = await load(server.ready.url, request, token, settings);
  return { ...figures, peakRssBytes: server.peakRss() };
}

async function benchEngine(target: BenchTarget, scenarios: Scenario[]): Promise<Row[]> {
  const size: Record<string, string> = args.tickets ? { BENCH_TICKETS: args.tickets } : {};
  const seeded = await seedTarget(target, size);
  const run = target.engine === 'postgres' ? pairedRun : phasedRun;
  return run(target, seeded, size, scenarios);
}

/**
 * PostgreSQL: the baseline and Atrium both listen, and each scenario's baseline runs just before
 * its Atrium load, so a ratio compares two loads seconds apart. Measured minutes apart, a shared
 * machine's drift moved the ratios by more than the changes they were meant to show (issue 15).
 * Both read the same data: a read after a write scenario sees its rows on both sides.
 */
async function pairedRun(target: BenchTarget, seeded: SeededTarget, size: Record<string, string>, scenarios: Scenario[]): Promise<Row[]> {
  const env = seeded.env;
  const baseline = await startChild<{ url: string }>(BASELINE, [JSON.stringify(target.target), JSON.stringify(env)]);
  const rows: Row[] = [];
  try {
    const service = await startService(target, seeded, size);
    notes.push(`${target.engine}: the seed process peaked at ${mib(seeded.seedPeakRss)}; the server at ${mib(service.peakRss())} once listening, before any load.`);
    notes.push(`${target.engine}: each scenario's baseline ran just before its Atrium load, both servers listening.`);
    try {
      for (const scenario of scenarios) {
        const index = allScenarios.indexOf(scenario);
        let baselineFigures: Figures | null = null;
        if (scenario.baseline) {
          console.error(`${target.engine}: baseline ${scenario.name}`);
          baselineFigures = await measure(baseline, { method: 'GET', path: `/baseline/${index}` }, null);
        }
        console.error(`${target.engine}: Atrium  ${scenario.name}`);
        const atrium = await measure(service, scenario.request(env), env.token);
        rows.push({ engine: target.engine, scenario: scenario.name, atrium, baseline: baselineFigures });
      }
    } finally {
      await service.stop();
    }
  } finally {
    await baseline.stop();
  }
  return rows;
}

/**
 * PGlite allows one process per folder: every baseline first, on the data as seeded (Atrium's
 * write scenarios add tickets that a later baseline would read too: the filter's baseline fell
 * from 2,488 to 650 req/s that way), then Atrium.
 */
async function phasedRun(target: BenchTarget, seeded: SeededTarget, size: Record<string, string>, scenarios: Scenario[]): Promise<Row[]> {
  const env = seeded.env;
  const baselines = new Map<Scenario, Figures>();
  const baseline = await startChild<{ url: string }>(BASELINE, [JSON.stringify(target.target), JSON.stringify(env)]);
  try {
    for (const scenario of scenarios) {
      if (!scenario.baseline) continue;
      console.error(`${target.engine}: baseline ${scenario.name}`);
      baselines.set(scenario, await measure(baseline, { method: 'GET', path: `/baseline/${allScenarios.indexOf(scenario)}` }, null));
    }
  } finally {
    await baseline.stop();
  }
  const service = await startService(target, seeded, size);
  notes.push(`${target.engine}: the seed process peaked at ${mib(seeded.seedPeakRss)}; the server at ${mib(service.peakRss())} once listening, before any load.`);
  const rows: Row[] = [];
  try {
    for (const scenario of scenarios) {
      console.error(`${target.engine}: Atrium  ${scenario.name}`);
      const atrium = await measure(service, scenario.request(env), env.token);
      rows.push({ engine: target.engine, scenario: scenario.name, atrium, baseline: baselines.get(scenario) ?? null });
    }
  } finally {
    await service.stop();
  }
  return rows;
}

const host = machine();
const wanted = readsFirst(scenariosNamed(allScenarios, args.only));
const engines: Array<() => Promise<BenchTarget>> = [];
const notes: string[] = [
  'Peak RSS is the kernel\'s high-water mark (VmHWM) of the server process, which runs as a child process of the harness; Atrium\'s figure grows across its scenarios (one process serves them all). The data is seeded by a separate process before the server starts (bench/lib/seed-child.ts), so the figure is the server\'s own.',
  'Atrium runs with LOG_LEVEL=warn and the per-token rate limit lifted (one token makes all the load); the baseline is a plain Fastify route doing the scenario\'s single SQL read through the same Kysely pool, without auth, validation or serialization schemas.',
];
const nodeNote = unclaimedNodeNote();
if (nodeNote) {
  console.error(nodeNote);
  notes.push(nodeNote);
}
if (args.tickets) notes.push(`Data set: ${args.tickets} tickets (bench/run.ts --tickets) across 20 projects, 500 members, comments and worklogs in proportion to the full set's 300,000 and 50,000.`);
if (!args.engine || args.engine === 'pglite') engines.push(async () => pgliteTarget(args['pglite-shared-buffers']));
if (args['pglite-shared-buffers']) notes.push(`PGlite ran with shared_buffers=${args['pglite-shared-buffers']} (PGLITE_SHARED_BUFFERS).`);
if (!args.engine || args.engine === 'postgres') {
  if (await postgresAnswers()) {
    engines.push(() => postgresTarget());
    const vacuum = await autovacuumNote();
    if (vacuum) notes.push(vacuum);
  } else notes.push('PostgreSQL: 127.0.0.1:5432 did not answer; PGlite only.');
}

const rows: Row[] = [];
for (const open of engines) {
  const target = await open();
  try {
    rows.push(...(await benchEngine(target, wanted)));
  } finally {
    await target.dispose();
  }
}
for (const row of rows) {
  for (const [who, side] of [['Atrium', row.atrium], ['baseline', row.baseline]] as const) {
    if (side && side.failures > 0) notes.push(`${row.engine} ${row.scenario}, ${who}: ${side.failures} failed requests — figures not trustworthy.`);
  }
}

const date = new Date();
console.log(markdownTable(rows));
console.log(notes.map((note) => `- ${note}`).join('\n'));
if (!args['no-record']) {
  appendResults(RESULTS, markdownSection(date, host, settings, rows, notes));
  fs.mkdirSync(OUT, { recursive: true });
  const file = new URL(`${date.toISOString().replace(/[:.]/g, '-')}.json`, OUT);
  fs.writeFileSync(file, `${JSON.stringify({ date: date.toISOString(), machine: host, settings, rows, notes }, null, 2)}\n`);
  console.error(`recorded in bench/RESULTS.md and ${file.pathname}`);
}
