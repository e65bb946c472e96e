// node --import tsx bench/mcp-floor.ts [-- --rounds 3 --duration 4 --connections 16]
// The floor under the MCP door's cost (ADR 0018): bare Fastify with no Atrium behind it, a GET
// answering /me's JSON against a POST carrying the bench's tools/call body and answering it in a
// tool result's envelope. The server's CPU per request of each, round by round, the doors taking
// turns: what MCP's transport (a POST for every call) costs over a REST GET before Atrium runs.
import { parseArgs } from 'node:util';
import { cpuMsOf, startChild } from './lib/child.ts';
import { load, type LoadSettings } from './lib/load.ts';
import { mcpToolCall } from './lib/mcp-request.ts';
import { unclaimedNodeNote } from './lib/node-release.ts';
import type { BenchRequest } from './scenarios/scenario.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '16' },
  },
});
const settings: LoadSettings = { duration: Number(args.duration), warmup: Number(args.warmup), connections: Number(args.connections) };

const doors: [string, BenchRequest][] = [
  ['GET', { method: 'GET', path: '/me' }],
  ['POST', { ...mcpToolCall('whoami', {}), path: '/mcp' }],
];

const note = unclaimedNodeNote();
if (note) console.log(note);
/** The server's CPU time so far; the figures are nothing without it, so off Linux the tool stops. */
function serverCpuMs(): number {
  const used = cpuMsOf(server.pid);
  if (used === null) throw new Error("the server's CPU time is read from /proc, which only Linux has");
  return used;
}

const server = await startChild<{ url: string }>(new URL('./lib/bare-doors-child.ts', import.meta.url), []);
try {
  console.log(`bare Fastify, ${settings.connections} connections, ${settings.duration} s a door a round; server CPU µs per request`);
  console.log('| round | GET req/s | GET µs | POST req/s | POST µs | POST − GET µs |');
  console.log('|--:|--:|--:|--:|--:|--:|');
  for (let round = 1; round <= Number(args.rounds); round++) {
    const figures = new Map<string, { perSecond: number; micros: number }>();
    // the doors take turns going first, so a drift of the machine falls on both
    for (const [name, request] of round % 2 ? doors : [...doors].reverse()) {
      const before = serverCpuMs();
      const loaded = await load(server.ready.url, request, 'bench', settings);
      const used = serverCpuMs() - before;
      if (loaded.failures > 0) throw new Error(`${name}: ${loaded.failures} of ${loaded.requests} requests failed`);
      figures.set(name, { perSecond: loaded.requestsPerSecond, micros: (used * 1000) / loaded.requests });
    }
    const get = figures.get('GET')!;
    const post = figures.get('POST')!;
    console.log(
      `| ${round} | ${get.perSecond} | ${get.micros.toFixed(0)} | ${post.perSecond} | ${post.micros.toFixed(0)} | ${(post.micros - get.micros).toFixed(0)} |`,
    );
  }
} finally {
  await server.stop();
}
