// node --import tsx bench/mcp.ts [-- --duration 10 --connections 16 --warmup 2 --rounds 2 --tickets 20000 --engine pglite|postgres --tools-list-only]
// The MCP door against the REST door for the same reads, same process, same run: requests/s,
// p99 and the MCP/REST ratio (the target: within 15 %, ADR 0046), plus the byte size of tools/list for a
// write and a read token. Pairs are taken from the registry: whoami, describe_project, and
// get_ticket / search_tickets once the tickets module has landed.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { createPersonalToken } from '../src/auth/personal-tokens.ts';
import { registry } from '../src/modules/index.ts';
import { openDatabase } from '../src/storage/database.ts';
import { PROTOCOL_VERSIONS } from '../src/surfaces/mcp/protocol.ts';
import { prepareWorkspace } from '../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../src/workspace/parse.ts';
import { cpuMsOf } from './lib/child.ts';
import { load, type LoadFigures, type LoadSettings } from './lib/load.ts';
import { mcpToolCall } from './lib/mcp-request.ts';
import { unclaimedNodeNote } from './lib/node-release.ts';
import { startBenchService } from './lib/service.ts';
import { pgliteTarget, postgresAnswers, postgresTarget, type BenchTarget } from './lib/target.ts';
import type { BenchRequest } from './scenarios/scenario.ts';

const BENCH_WORKSPACE = new URL('./fixtures/workspace.yaml', import.meta.url);
const OUT = new URL('./out/', import.meta.url);
const PROJECT = 'ATR';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    /** Rounds per pair; the doors alternate which goes first. */
    rounds: { type: 'string', default: '2' },
    /** A smaller tickets data set than the bench's 100,000 (as bench/run.ts --tickets). */
    tickets: { type: 'string' },
    engine: { type: 'string' },
    'tools-list-only': { type: 'boolean', default: false },
  },
});
const settings: LoadSettings = { duration: Number(args.duration), warmup: Number(args.warmup), connections: Number(args.connections) };
const rounds = Number(args.rounds);

interface Pair {
  tool: string;
  arguments: Record<string, unknown>;
  rest: BenchRequest;
}

function pairs(ticketKey: string | null): Pair[] {
  const all: Pair[] = [
    { tool: 'whoami', arguments: {}, rest: { method: 'GET', path: '/api/v1/me' } },
    { tool: 'describe_project', arguments: { project: PROJECT }, rest: { method: 'GET', path: `/api/v1/projects/${PROJECT}` } },
  ];
  if (ticketKey) {
    all.push(
      { tool: 'get_ticket', arguments: { key: ticketKey }, rest: { method: 'GET', path: `/api/v1/tickets/${ticketKey}` } },
      {
        tool: 'search_tickets',
        arguments: { project: PROJECT, limit: 20 },
        rest: { method: 'GET', path: `/api/v1/tickets?project=${PROJECT}&limit=20` },
      },
    );
  }
  return all.filter((pair) => registry.byTool.has(pair.tool));
}

const mcpCall = (pair: Pair): BenchRequest => mcpToolCall(pair.tool, pair.arguments);

/** tools/list in bytes per protocol version for a write and a read token, measured in this process before any load. */
async function toolListSizes(): Promise<string[]> {
  const database = await openDatabase({ engine: 'pglite', memory: true });
  try {
    await prepareWorkspace(database.db, {
      demo: false,
      initialWorkspace: parseWorkspaceYaml(fs.readFileSync(BENCH_WORKSPACE, 'utf8'), 'bench/fixtures/workspace.yaml'),
    });
    const member = await database.db
      .selectFrom('members')
      .select('id')
      .where('email', '=', 'agent@bench.example')
      .executeTakeFirstOrThrow();
    const app = await buildApp({ config: { publicUrl: 'http://127.0.0.1', logLevel: 'warn' }, database });
    const lines: string[] = [];
    for (const access of ['write', 'read'] as const) {
      const { secret } = await createPersonalToken(database.db, { memberId: member.id, name: `bench ${access}`, access, lifetimeDays: 30 });
      for (const version of PROTOCOL_VERSIONS) {
        const reply = await app.inject({
          method: 'POST',
          url: '/mcp',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'mcp-protocol-version': version },
          payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        if (reply.statusCode !== 200) throw new Error(`tools/list answered ${reply.statusCode}`);
        lines.push(
          `| ${version} | ${access} | ${(JSON.parse(reply.body) as { result: { tools: unknown[] } }).result.tools.length} | ${Buffer.byteLength(reply.body)} |`,
        );
      }
    }
    await app.close();
    return lines;
  } finally {
    await database.close();
  }
}

/** A ticket to read, made through the REST API of the running service (null before tickets land). */
async function arrangeTicket(url: string, token: string): Promise<string | null> {
  if (!registry.byTool.has('create_ticket')) return null;
  const response = await fetch(`${url}/api/v1/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project: PROJECT, summary: 'Benchmark ticket', description: 'Read by bench/mcp.ts through both doors.' }),
  });
  if (response.status !== 201) throw new Error(`creating a ticket answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { key: string }).key;
}

/** Load figures plus the server's CPU time per answered request, summed over the rounds. */
interface DoorFigures extends LoadFigures {
  cpuMsPerRequest: number;
}

interface Row {
  engine: string;
  tool: string;
  rest: DoorFigures;
  mcp: DoorFigures;
  /** MCP/REST requests/s of each round's two loads, seconds apart: the spread a shared machine puts on one ratio. */
  roundRatios: number[];
}

/** One door loaded once: warm-up, then the measured run with the server's CPU time around it. */
async function measure(url: string, request: BenchRequest, token: string, pid: number): Promise<LoadFigures & { cpuMs: number }> {
  if (settings.warmup > 0) await load(url, request, token, { ...settings, duration: settings.warmup, warmup: 0 });
  const before = cpuMsOf(pid) ?? NaN;
  const figures = await load(url, request, token, { ...settings, warmup: 0 });
  return { ...figures, cpuMs: (cpuMsOf(pid) ?? NaN) - before };
}

/** Rounds of one door added up: requests/s and CPU per request over all rounds, the worst p99. */
function combine(runs: Array<LoadFigures & { cpuMs: number }>): DoorFigures {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  return {
    requestsPerSecond: Math.round(runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length),
    p50Ms: Math.max(...runs.map((run) => run.p50Ms)),
    p95Ms: Math.max(...runs.map((run) => run.p95Ms)),
    p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
    requests,
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    cpuMsPerRequest: runs.reduce((sum, run) => sum + run.cpuMs, 0) / requests,
  };
}

async function benchEngine(target: BenchTarget): Promise<Row[]> {
  const { service } = await startBenchService(target, args.tickets ? { BENCH_TICKETS: args.tickets } : {});
  const rows: Row[] = [];
  try {
    const { url, env } = service.ready;
    const ticketKey = await arrangeTicket(url, env.token);
    for (const pair of pairs(ticketKey)) {
      const rest: Array<LoadFigures & { cpuMs: number }> = [];
      const mcp: Array<LoadFigures & { cpuMs: number }> = [];
      // The doors take turns (REST first in odd rounds, MCP first in even ones), so that a change
      // in the machine's load during a pair does not fall on one door only.
      for (let round = 1; round <= rounds; round++) {
        console.error(`${target.engine}: ${pair.tool}, round ${round}`);
        const order = round % 2 === 1 ? (['rest', 'mcp'] as const) : (['mcp', 'rest'] as const);
        for (const door of order) {
          const request = door === 'rest' ? pair.rest : mcpCall(pair);
          (door === 'rest' ? rest : mcp).push(await measure(url, request, env.token, service.pid));
        }
      }
      const roundRatios = rest.map((run, i) => mcp[i]!.requestsPerSecond / run.requestsPerSecond);
      rows.push({ engine: target.engine, tool: pair.tool, rest: combine(rest), mcp: combine(mcp), roundRatios });
    }
  } finally {
    await service.stop();
    await target.dispose();
  }
  return rows;
}

const sizes = await toolListSizes();
const sizeTable = [
  `tools/list of the bench workspace (${registry.byTool.size} tools in the registry), in bytes:`,
  '',
  '| protocol | token | tools | bytes |',
  '|---|---|---:|---:|',
  ...sizes,
];
if (args['tools-list-only']) {
  console.log(sizeTable.join('\n'));
  process.exit(0);
}
const targets: Array<() => Promise<BenchTarget>> = [];
if (!args.engine || args.engine === 'pglite') targets.push(async () => pgliteTarget());
if ((!args.engine || args.engine === 'postgres') && (await postgresAnswers())) targets.push(() => postgresTarget());
const rows: Row[] = [];
for (const target of targets) rows.push(...(await benchEngine(await target())));

/** Ratios as `lowest–highest (median)`. */
function spread(ratios: number[]): string {
  const sorted = [...ratios].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return `${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)} (${median.toFixed(2)})`;
}

const nodeNote = unclaimedNodeNote();
const lines = [
  `MCP against REST, ${settings.connections} connections, ${rounds} rounds of ${settings.duration} s per door (each after ${settings.warmup} s warm-up), ` +
    "requests/s averaged over the rounds, the worst p99, the server's CPU time per request over all rounds, " +
    "and each round's own MCP/REST ratio as lowest–highest (median)",
  '',
  '| engine | tool | REST req/s | REST p99 ms | REST CPU ms/req | MCP req/s | MCP p99 ms | MCP CPU ms/req | MCP/REST req/s | per round | REST/MCP CPU | failures |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.engine} | ${row.tool} | ${row.rest.requestsPerSecond} | ${row.rest.p99Ms} | ${row.rest.cpuMsPerRequest.toFixed(3)} | ` +
      `${row.mcp.requestsPerSecond} | ${row.mcp.p99Ms} | ${row.mcp.cpuMsPerRequest.toFixed(3)} | ` +
      `${(row.mcp.requestsPerSecond / row.rest.requestsPerSecond).toFixed(2)} | ${spread(row.roundRatios)} | ${(row.rest.cpuMsPerRequest / row.mcp.cpuMsPerRequest).toFixed(2)} | ${row.rest.failures + row.mcp.failures} |`,
  ),
  '',
  ...sizeTable,
  ...(nodeNote ? ['', nodeNote] : []),
];
console.log(lines.join('\n'));
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(
  new URL('mcp.json', OUT),
  `${JSON.stringify({ settings, rows, toolListBytes: sizes, at: new Date().toISOString() }, null, 2)}\n`,
);
