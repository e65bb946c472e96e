// npm run bench [-- --duration 10 --connections 16 --warmup 2 --only me,board --engine pglite|postgres --tickets 20000 --pglite-shared-buffers 32MB]
// Loads Atrium and a bare Fastify baseline doing the same single SQL read, on PGlite (always) and
// on a fresh PostgreSQL database (when 127.0.0.1:5432 answers), and prints the ratio. Each run is
// appended to bench/runs.jsonl; a full run (no --only, --tickets or --engine) also makes
// bench/RESULTS.md from it. --no-record records nothing.
import { parseArgs } from 'node:util';
import { startChild, type Child } from './lib/child.ts';
import { load, type LoadSettings } from './lib/load.ts';
import { loadScenarios, readsFirst, scenariosNamed } from './lib/load-scenarios.ts';
import { unclaimedNodeNote } from './lib/node-release.ts';
import { seedTarget, startService, type SeededTarget } from './lib/service.ts';
import { machine, markdownTable, type Row } from './lib/report.ts';
import { RESULTS, RUNS, scenarioTargets, writeResults } from './lib/results.ts';
import { appendRun, currentCommit, type EngineMemory, type RunRecord } from './lib/runs.ts';
import type { BenchRequest, Scenario } from './scenarios/scenario.ts';
import { autovacuumNote, pgliteTarget, postgresAnswers, postgresTarget, type BenchTarget } from './lib/target.ts';

const BASELINE = new URL('./lib/baseline-child.ts', import.meta.url);

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
 * machine's drift moved the ratios by more than the changes they were meant to show (ADR 0046).
 * Both read the same data: a read after a write scenario sees its rows on both sides.
 */
async function pairedRun(target: BenchTarget, seeded: SeededTarget, size: Record<string, string>, scenarios: Scenario[]): Promise<Row[]> {
  const env = seeded.env;
  const baseline = await startChild<{ url: string }>(BASELINE, [JSON.stringify(target.target), JSON.stringify(env)]);
  const rows: Row[] = [];
  try {
    const service = await startService(target, seeded, size);
    memory.push({ engine: target.engine, listeningRssBytes: service.peakRss(), seedPeakRssBytes: seeded.seedPeakRss });
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
  memory.push({ engine: target.engine, listeningRssBytes: service.peakRss(), seedPeakRssBytes: seeded.seedPeakRss });
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
const { commit, dirty } = currentCommit();
const date = new Date();
const wanted = readsFirst(scenariosNamed(allScenarios, args.only));
const engines: Array<() => Promise<BenchTarget>> = [];
const memory: EngineMemory[] = [];
/** What a reader of this run's figures must know; how the bench works is in bench/README.md. */
const notes: string[] = [];
const nodeNote = unclaimedNodeNote();
if (nodeNote) {
  console.error(nodeNote);
  notes.push(nodeNote);
}
if (!args.engine || args.engine === 'pglite') engines.push(async () => pgliteTarget(args['pglite-shared-buffers']));
if (!args.engine || args.engine === 'postgres') {
  if (await postgresAnswers()) {
    engines.push(() => postgresTarget());
    const vacuum = await autovacuumNote();
    if (vacuum) notes.push(vacuum);
  } else notes.push('PostgreSQL: 127.0.0.1:5432 did not answer; PGlite only.');
}

const rows: Row[] = [];
const ran: Array<'pglite' | 'postgres'> = [];
for (const open of engines) {
  const target = await open();
  ran.push(target.engine);
  try {
    rows.push(...(await benchEngine(target, wanted)));
  } finally {
    await target.dispose();
  }
}
for (const row of rows) {
  for (const [who, side] of [
    ['Atrium', row.atrium],
    ['baseline', row.baseline],
  ] as const) {
    if (side && side.failures > 0)
      notes.push(`${row.engine} ${row.scenario}, ${who}: ${side.failures} failed requests — figures not trustworthy.`);
  }
}

console.log(markdownTable(rows));
console.log(notes.map((note) => `- ${note}`).join('\n'));
if (!args['no-record']) {
  const { node, loadAverage, ...box } = host;
  const run: RunRecord = {
    date: date.toISOString(),
    commit,
    dirty,
    machine: box,
    node,
    loadAverage,
    settings,
    options: {
      engines: ran,
      only: args.only ?? null,
      tickets: args.tickets ?? null,
      pgliteSharedBuffers: args['pglite-shared-buffers'] ?? null,
    },
    full: !args.only && !args.tickets && !args['pglite-shared-buffers'] && ran.length === 2,
    memory,
    rows,
    notes,
  };
  appendRun(RUNS, run);
  const rendered = run.full && writeResults(RUNS, RESULTS, await scenarioTargets());
  console.error(
    `recorded in bench/runs.jsonl${rendered ? '; bench/RESULTS.md made from it' : ' (not a full run: bench/RESULTS.md left as it was)'}`,
  );
}
