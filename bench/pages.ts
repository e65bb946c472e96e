// node --import tsx bench/pages.ts [--engine postgres|pglite] [--tickets 100000] [--requests 300]
// The pages' figures (WEB.md §3): the server time of the home, project, ticket, ticket search (50
// open tickets of a project by priority, with the bulk form), board (500 cards in its sprint) and
// backlog pages, one
// request at a time (p50, p95, p99), and the JavaScript and CSS each page loads, compressed as the
// service sends them (brotli and gzip). Targets: p95 < 50 ms on the 100,000-ticket set; JavaScript
// < 60 KB and CSS < 30 KB compressed.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { createPersonalToken } from '../src/auth/personal-tokens.ts';
import { openDatabase } from '../src/storage/database.ts';
import { prepareWorkspace } from '../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../src/workspace/parse.ts';
import { pgliteTarget, postgresTarget } from './lib/target.ts';
import { PAGE_TICKET, PAGES, seedPageSession } from './scenarios/pages.ts';
import { scenarios as boardScenarios } from './scenarios/boards.ts';
import { scenarios as ticketScenarios } from './scenarios/tickets.ts';

const { values: args } = parseArgs({
  options: { engine: { type: 'string', default: 'postgres' }, requests: { type: 'string', default: '300' }, tickets: { type: 'string' } },
});
if (args.tickets) process.env.BENCH_TICKETS = args.tickets;
const requests = Number(args.requests);
const target = args.engine === 'pglite' ? pgliteTarget() : await postgresTarget();
const database = await openDatabase(target.target);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
try {
  const file = fs.readFileSync(new URL('./fixtures/workspace.yaml', import.meta.url), 'utf8');
  await prepareWorkspace(database.db, { demo: false, initialWorkspace: parseWorkspaceYaml(file, 'bench/fixtures/workspace.yaml') });
  const member = await database.db.selectFrom('members').select('id').where('email', '=', 'agent@bench.example').executeTakeFirstOrThrow();
  const { secret } = await createPersonalToken(database.db, { memberId: member.id, name: 'bench', access: 'write', lifetimeDays: 30 });
  const env = { token: secret, memberId: member.id };
  const started = Date.now();
  // the tickets scenarios' first seed generates the data set
  await ticketScenarios[0]!.seed!(database.db, env);
  const { pageCookie } = await seedPageSession(database.db, env);
  // the boards scenarios' seed: board 90, a sprint of 500 cards
  await boardScenarios.find((s) => s.seed)!.seed!(database.db, env);
  console.error(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const app = await buildApp({ config: { publicUrl: 'http://127.0.0.1', logLevel: 'warn' }, database, rateLimit: Number.MAX_SAFE_INTEGER });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { cookie: `atrium_session=${pageCookie}`, accept: 'text/html' };
  // a smaller data set may stop short of ATR-1234: then its project's last ticket
  const ticket = await database.db
    .selectFrom('tickets')
    .select('key')
    .where('key', 'in', [PAGE_TICKET])
    .executeTakeFirst()
    .then(
      async (found) =>
        found ??
        (await database.db
          .selectFrom('tickets')
          .select('key')
          .where('key', 'like', 'ATR-%')
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow()),
    );
  const pages = { ...PAGES, ticket: `/browse/${ticket.key}`, board: '/boards/90', backlog: '/boards/90/backlog' };
  const timings: string[] = [];
  const weights: string[] = [];
  for (const [name, path] of Object.entries(pages)) {
    const get = async () => {
      const response = await fetch(`${url}${path}`, { headers, redirect: 'manual' });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${name} page: ${response.status}`);
      return text;
    };
    for (let i = 0; i < 20; i += 1) await get(); // warm: JIT, plans, pool
    const times: number[] = [];
    for (let i = 0; i < requests; i += 1) {
      const at = performance.now();
      await get();
      times.push(performance.now() - at);
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
    timings.push(`| ${args.engine} | ${name} | ${path} | ${requests} | ${q(0.5)} | ${q(0.95)} | ${q(0.99)} |`);

    // what the page loads: its scripts and stylesheets, as a browser asking for brotli or gzip receives them
    const html = await get();
    const assets = [...html.matchAll(/<script src="([^"]+)"|<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1] ?? m[2]!);
    const sizes = { js: { br: 0, gzip: 0, raw: 0 }, css: { br: 0, gzip: 0, raw: 0 } };
    for (const asset of assets) {
      const kind = asset.endsWith('.css') ? 'css' : 'js';
      for (const encoding of ['br', 'gzip', 'identity'] as const) {
        const response = await fetch(`${url}${asset}`, { headers: { 'accept-encoding': encoding } });
        // fetch decodes what it receives: the bytes on the wire are the Content-Length the service sent
        const length = Number(response.headers.get('content-length') ?? (await response.arrayBuffer()).byteLength);
        sizes[kind][encoding === 'identity' ? 'raw' : encoding] += length;
      }
    }
    weights.push(
      `| ${name} | ${assets.length} | ${kb(sizes.js.br)} | ${kb(sizes.js.gzip)} | ${kb(sizes.js.raw)} | ${kb(sizes.css.br)} | ${kb(sizes.css.gzip)} | ${kb(sizes.css.raw)} |`,
    );
  }
  await app.close();
  console.log(
    ['| Engine | Page | Path | requests, one at a time | p50 ms | p95 ms | p99 ms |', '|---|---|---|--:|--:|--:|--:|', ...timings].join(
      '\n',
    ),
  );
  console.log('');
  console.log(
    [
      '| Page | files | JS brotli | JS gzip | JS raw | CSS brotli | CSS gzip | CSS raw |',
      '|---|--:|--:|--:|--:|--:|--:|--:|',
      ...weights,
    ].join('\n'),
  );
} finally {
  await database.close();
  await target.dispose();
}
