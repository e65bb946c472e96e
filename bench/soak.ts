// npm run bench:soak [-- --minutes 10 --connections 16 --engine postgres|pglite --tickets 20000]
// N minutes of mixed load — every bench scenario's REST request, MCP tool calls,
// and writes (a ticket made, a comment added) — against one Atrium process, measured minute by
// minute: requests, p50, p99, failures and the server's RSS. At the end, the trend: the slope of
// RSS and of p99 per minute (least squares), over all minutes, after the first, and over the second
// half. The heap grows for the first minutes (JIT, caches, the pool, V8 sizing its heap); a leak
// shows as a slope that stays positive over the second half as runs get longer.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { rssOf } from './lib/child.ts';
import { startBenchService } from './lib/service.ts';
import { loadMix, type LoadFigures } from './lib/load.ts';
import { loadScenarios } from './lib/load-scenarios.ts';
import { mcpToolCall } from './lib/mcp-request.ts';
import { machine } from './lib/report.ts';
import { pgliteTarget, postgresAnswers, postgresTarget, type BenchTarget } from './lib/target.ts';
import type { BenchEnv, BenchRequest } from './scenarios/scenario.ts';

const PROJECT = 'ATR';
const READ_TICKET = 'ATR-1234';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    engine: { type: 'string' },
    /** Tickets in the data set the scenarios seed (bench/generate-data.ts); at least 20,000. */
    tickets: { type: 'string', default: '20000' },
  },
});
const minutes = Number(args.minutes);
const connections = Number(args.connections);

interface Sample extends LoadFigures {
  minute: number;
  rssBytes: number | null;
  loadAverage: number;
}

/** A ticket made through the API for the soak's comments (so the tickets read do not grow). */
async function arrangeTicket(url: string, token: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project: PROJECT, summary: 'Soak: commented on for the whole run' }),
  });
  if (response.status !== 201) throw new Error(`creating a ticket answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { key: string }).key;
}

async function mix(env: BenchEnv, commented: string): Promise<BenchRequest[]> {
  const rest = (await loadScenarios()).map((scenario) => scenario.request(env));
  return [
    ...rest,
    mcpToolCall('whoami', {}),
    mcpToolCall('get_ticket', { key: READ_TICKET }),
    mcpToolCall('search_tickets', { project: PROJECT, limit: 20 }),
    mcpToolCall('describe_project', { project: PROJECT }),
    { method: 'POST', path: '/api/v1/tickets', body: { project: PROJECT, summary: 'Soak ticket', description: 'Made by bench/soak.ts.' } },
    { method: 'POST', path: `/api/v1/tickets/${commented}/comments`, body: { body: 'Soak comment' } },
    mcpToolCall('add_comment', { key: commented, body: 'Soak comment through MCP' }),
  ];
}

/** Each request once, before the load: a mix that fails (an MCP error answers 200) would measure nothing. */
async function checkMix(url: string, token: string, requests: readonly BenchRequest[]): Promise<void> {
  for (const request of requests) {
    const response = await fetch(`${url}${request.path}`, {
      method: request.method,
      headers: {
        ...request.headers,
        authorization: `Bearer ${token}`,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const text = await response.text();
    if (!response.ok || /"isError":\s*true/.test(text))
      throw new Error(`${request.method} ${request.path} answered ${response.status}: ${text.slice(0, 300)}`);
  }
}

/** Least-squares slope of y over x. */
function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

const mib = (bytes: number | null) => (bytes === null ? NaN : bytes / 2 ** 20);
const loadAverage = () => Math.round(os.loadavg()[0]! * 10) / 10;

function report(engine: string, restScenarios: number, requestCount: number, startRss: number | null, samples: Sample[]): string {
  const rss = samples.filter((s) => s.rssBytes !== null).map((s) => [s.minute, mib(s.rssBytes)] as const);
  const p99 = samples.map((s) => [s.minute, s.p99Ms] as const);
  const afterFirst = <T extends readonly [number, number]>(points: T[]) => points.filter(([minute]) => minute > 1);
  const secondHalf = <T extends readonly [number, number]>(points: T[]) => points.filter(([minute]) => minute > samples.length / 2);
  const host = machine();
  return [
    `Soak on ${engine}: ${samples.length} minutes, ${connections} connections, a mix of ${requestCount} requests each connection sends in turn ` +
      `(the ${restScenarios} bench scenarios' REST requests, 5 MCP tool calls of which one comments, 2 REST writes: a ticket, a comment). ${host.cpus} CPUs (${host.cpuModel}), Node.js ${host.node}. ` +
      `Server RSS before the load: ${mib(startRss).toFixed(0)} MiB.`,
    '',
    '| minute | requests | req/s | p50 ms | p99 ms | failures | RSS MiB | load average |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...samples.map(
      (s) =>
        `| ${s.minute} | ${s.requests} | ${s.requestsPerSecond} | ${s.p50Ms} | ${s.p99Ms} | ${s.failures} | ${mib(s.rssBytes).toFixed(0)} | ${s.loadAverage} |`,
    ),
    '',
    `Trend (least squares): RSS ${slope(rss).toFixed(2)} MiB/minute over all minutes, ${slope(afterFirst(rss)).toFixed(2)} after the first, ` +
      `${slope(secondHalf(rss)).toFixed(2)} over the second half; p99 ${slope(p99).toFixed(2)} ms/minute over all minutes, ` +
      `${slope(afterFirst(p99)).toFixed(2)} after the first, ${slope(secondHalf(p99)).toFixed(2)} over the second half.`,
  ].join('\n');
}

async function soak(target: BenchTarget): Promise<string> {
  const { service } = await startBenchService(target, { BENCH_TICKETS: args.tickets! });
  try {
    const { url, env } = service.ready;
    const commented = await arrangeTicket(url, env.token);
    const requests = await mix(env, commented);
    await checkMix(url, env.token, requests);
    const startRss = rssOf(service.pid);
    const samples: Sample[] = [];
    for (let minute = 1; minute <= minutes; minute++) {
      const figures = await loadMix(url, requests, env.token, { connections, duration: 60, warmup: 0 });
      const sample = { minute, ...figures, rssBytes: rssOf(service.pid), loadAverage: loadAverage() };
      samples.push(sample);
      console.error(
        `${target.engine} minute ${minute}: ${figures.requestsPerSecond} req/s, p99 ${figures.p99Ms} ms, RSS ${mib(sample.rssBytes).toFixed(0)} MiB, ${figures.failures} failures`,
      );
    }
    return report(target.engine, (await loadScenarios()).length, requests.length, startRss, samples);
  } finally {
    await service.stop();
  }
}

const engine = args.engine ?? ((await postgresAnswers()) ? 'postgres' : 'pglite');
if (engine !== 'postgres' && engine !== 'pglite') throw new Error(`--engine: postgres or pglite, not ${engine}`);
console.error(`soak: ${minutes} minutes on ${engine}, load average ${loadAverage()} at the start; seeding ${args.tickets} tickets first`);
const target = engine === 'postgres' ? await postgresTarget() : pgliteTarget();
try {
  console.log(await soak(target));
} finally {
  await target.dispose();
}
