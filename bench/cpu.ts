// npm run bench:cpu [-- --only boards/90,comments --engine postgres|pglite --rounds 3 --duration 8 --warmup 2 --connections 16 --tickets 20000]
// What a request costs in CPU, for sizing a machine (docs/operations.md, "CPU: what a request
// costs"): the service's process and PostgreSQL's processes, each one's CPU time over the requests
// answered, round by round. Unlike requests a second, CPU per request hardly moves with the load
// generator sharing the CPUs. Without --only: a 500-card board, a ticket, a comment and a create.
import { parseArgs } from 'node:util';
import { cpuMsOf, postgresCpuMs } from './lib/child.ts';
import { load, type LoadFigures, type LoadSettings } from './lib/load.ts';
import { loadScenarios, scenariosNamed } from './lib/load-scenarios.ts';
import { unclaimedNodeNote } from './lib/node-release.ts';
import { machine } from './lib/report.ts';
import { startBenchService } from './lib/service.ts';
import { pgliteTarget, postgresAnswers, postgresTarget, type BenchTarget } from './lib/target.ts';
import type { BenchRequest, Scenario } from './scenarios/scenario.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    /** Scenarios whose name contains any of these comma-separated words (bench/run.ts --only). */
    only: { type: 'string' },
    /** A smaller data set than the full 100,000 tickets (bench/run.ts --tickets). */
    tickets: { type: 'string' },
    /** postgres (127.0.0.1:5432, the default when it answers) or pglite. */
    engine: { type: 'string' },
  },
});
const settings: LoadSettings = { duration: Number(args.duration), warmup: Number(args.warmup), connections: Number(args.connections) };
const rounds = Number(args.rounds);

/** The requests of operations.md's table, when --only names none. */
const SIZING: ((name: string) => boolean)[] = [
  (name) => name.startsWith('GET /api/v1/boards/') && name.includes('(500 cards'),
  (name) => /^GET \/api\/v1\/tickets\/[A-Z]+-\d+$/.test(name),
  (name) => name.startsWith('POST /api/v1/tickets/') && name.endsWith('/comments'),
  (name) => name === 'POST /api/v1/tickets',
];

interface Round extends LoadFigures {
  serviceMs: number;
  /** PostgreSQL's processes; null on PGlite, whose database runs inside the service. */
  databaseMs: number | null;
}

/** One measured load of `scenario`, with the CPU each side used during it (after a warm-up thrown away). */
async function measure(
  url: string,
  token: string,
  scenario: Scenario,
  request: BenchRequest,
  pid: number,
  engine: BenchTarget['engine'],
): Promise<Round> {
  if (settings.warmup > 0) await load(url, request, token, { ...settings, duration: settings.warmup, warmup: 0 });
  const databaseBefore = engine === 'postgres' ? postgresCpuMs() : null;
  const serviceBefore = cpuMsOf(pid);
  const figures = await load(url, request, token, { ...settings, warmup: 0 });
  const serviceAfter = cpuMsOf(pid);
  const databaseAfter = engine === 'postgres' ? postgresCpuMs() : null;
  if (figures.failures > 0) throw new Error(`${scenario.name}: ${figures.failures} requests failed, so it has no figures`);
  if (serviceBefore === null || serviceAfter === null) throw new Error("the service's CPU time is read from /proc, which only Linux has");
  return {
    ...figures,
    serviceMs: serviceAfter - serviceBefore,
    databaseMs: databaseBefore === null || databaseAfter === null ? null : databaseAfter - databaseBefore,
  };
}

/** The rounds' lowest and highest figure, or the one figure when they agree. */
function spread(values: readonly number[], digits: number): string {
  const low = Math.min(...values).toFixed(digits);
  const high = Math.max(...values).toFixed(digits);
  return low === high ? low : `${low}–${high}`;
}

async function benchEngine(target: BenchTarget, scenarios: Scenario[]): Promise<string[]> {
  const { service } = await startBenchService(target, args.tickets ? { BENCH_TICKETS: args.tickets } : {});
  const lines: string[] = [];
  try {
    const { url, env } = service.ready;
    // Each scenario's rounds one after the other, in the bench's order: a read of ATR-1234 before
    // the comments that make its detail longer.
    for (const scenario of scenarios) {
      const measured: Round[] = [];
      for (let round = 1; round <= rounds; round++) {
        console.error(`${target.engine}: ${scenario.name}, round ${round}`);
        measured.push(await measure(url, env.token, scenario, scenario.request(env), service.pid, target.engine));
      }
      const serviceMs = spread(
        measured.map((r) => r.serviceMs / r.requests),
        2,
      );
      const databaseTimes = measured.flatMap((r) => (r.databaseMs === null ? [] : [r.databaseMs / r.requests]));
      const databaseMs = databaseTimes.length === measured.length ? spread(databaseTimes, 2) : 'in the service';
      lines.push(
        `| ${target.engine} | ${scenario.name} | ${serviceMs} | ${databaseMs} | ${spread(
          measured.map((r) => r.requestsPerSecond),
          0,
        )} |`,
      );
    }
  } finally {
    await service.stop();
  }
  return lines;
}

const all = await loadScenarios();
const scenarios = args.only ? scenariosNamed(all, args.only) : all.filter((scenario) => SIZING.some((sizing) => sizing(scenario.name)));
if (args.engine !== undefined && args.engine !== 'postgres' && args.engine !== 'pglite')
  throw new Error(`--engine takes postgres or pglite, not ${args.engine}`);
const engines: Array<() => Promise<BenchTarget>> = [];
if (args.engine === 'pglite') engines.push(async () => pgliteTarget());
else if (await postgresAnswers()) engines.push(() => postgresTarget());
else if (args.engine === 'postgres') throw new Error('PostgreSQL at 127.0.0.1:5432 does not answer');
else engines.push(async () => pgliteTarget());

const host = machine();
const lines: string[] = [];
for (const open of engines) {
  const target = await open();
  try {
    lines.push(...(await benchEngine(target, scenarios)));
  } finally {
    await target.dispose();
  }
}
console.log(
  `CPU per request: ${host.cpus} CPUs (${host.cpuModel}), Node.js ${process.version}; ${settings.connections} connections, ${rounds} rounds of ${settings.duration} s after ${settings.warmup} s of warm-up each; the load generator shares the CPUs.`,
);
const nodeNote = unclaimedNodeNote();
if (nodeNote) console.log(nodeNote);
if (lines.some((line) => line.startsWith('| postgres')))
  console.log('PostgreSQL is every `postgres` process on this machine, so run it on a database server doing nothing else.');
console.log('');
console.log('| Engine | Request | Service ms | Database ms | Answered a second |');
console.log('|---|---|--:|--:|--:|');
console.log(lines.join('\n'));
