// node --import tsx bench/mcp.ts [-- --duration 10 --connections 16 --warmup 2 --engine pglite|postgres --tools-list-only]
// The MCP door against the REST door for the same reads, same process, same run: requests/s,
// p99 and the MCP/REST ratio (issue 4: goal within 15%), plus the byte size of tools/list for a
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
import { startChild } from './lib/child.ts';
import { load, type LoadFigures, type LoadSettings } from './lib/load.ts';
import { mcpToolCall } from './lib/mcp-request.ts';
import { pgliteTarget, postgresAnswers, postgresTarget, type BenchTarget } from './lib/target.ts';
import type { BenchEnv, BenchRequest } from './scenarios/scenario.ts';

const SERVICE = new URL('./lib/service-child.ts', import.meta.url);
const BENCH_WORKSPACE = new URL('./fixtures/workspace.yaml', import.meta.url);
const OUT = new URL('./out/', import.meta.url);
const PROJECT = 'ATR';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    engine: { type: 'string' },
    'tools-list-only': { type: 'boolean', default: false },
  },
});
const settings: LoadSettings = { duration: Number(args.duration), warmup: Number(args.warmup), connections: Number(args.connections) };

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
      { tool: 'search_tickets', arguments: { project: PROJECT, limit: 20 }, rest: { method: 'GET', path: `/api/v1/tickets?project=${PROJECT}&limit=20` } },
    );
  }
  return all.filter((pair) => registry.byTool.has(pair.tool));
}

const mcpCall = (pair: Pair): BenchRequest => mcpToolCall(pair.tool, pair.arguments);

/** tools/list in bytes per protocol version for a write and a read token, measured in this process before any load. */
async function toolListSizes(): Promise<string[]> {
  const database = await openDatabase({ engine: 'pglite', memory: true });
  try {
    await prepareWorkspace(database.db, { demo: false, initialWorkspace: parseWorkspaceYaml(fs.readFileSync(BENCH_WORKSPACE, 'utf8'), 'bench/fixtures/workspace.yaml') });
    const member = await database.db.selectFrom('members').select('id').where('email', '=', 'agent@bench.example').executeTakeFirstOrThrow();
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
        lines.push(`| ${version} | ${access} | ${(JSON.parse(reply.body) as { result: { tools: unknown[] } }).result.tools.length} | ${Buffer.byteLength(reply.body)} |`);
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

interface Row {
  engine: string;
  tool: string;
  rest: LoadFigures;
  mcp: LoadFigures;
}

async function benchEngine(target: BenchTarget): Promise<Row[]> {
  const service = await startChild<{ url: string; env: BenchEnv }>(SERVICE, [JSON.stringify(target.target)]);
  const rows: Row[] = [];
  try {
    const { url, env } = service.ready;
    const ticketKey = await arrangeTicket(url, env.token);
    for (const pair of pairs(ticketKey)) {
      console.error(`${target.engine}: ${pair.tool} (REST, then MCP)`);
      const rest = await load(url, pair.rest, env.token, settings);
      const mcp = await load(url, mcpCall(pair), env.token, settings);
      rows.push({ engine: target.engine, tool: pair.tool, rest, mcp });
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

const lines = [
  `MCP against REST, ${settings.connections} connections, ${settings.duration} s each (after ${settings.warmup} s warm-up)`,
  '',
  '| engine | tool | REST req/s | REST p99 ms | MCP req/s | MCP p99 ms | MCP/REST req/s | failures |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map((row) =>
    `| ${row.engine} | ${row.tool} | ${row.rest.requestsPerSecond} | ${row.rest.p99Ms} | ${row.mcp.requestsPerSecond} | ${row.mcp.p99Ms} | ${(row.mcp.requestsPerSecond / row.rest.requestsPerSecond).toFixed(2)} | ${row.rest.failures + row.mcp.failures} |`,
  ),
  '',
  ...sizeTable,
];
console.log(lines.join('\n'));
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(new URL('mcp.json', OUT), `${JSON.stringify({ settings, rows, toolListBytes: sizes, at: new Date().toISOString() }, null, 2)}\n`);
