// node --import tsx bench/pages.ts [--engine postgres|pglite] [--tickets 100000] [--requests 300] [--no-record]
// The pages' figures (WEB.md §3): the server time of the home, project, ticket, ticket search (50
// open tickets of a project by priority, with the bulk form), board (500 cards in its sprint) and
// backlog pages, one request at a time (p50, p95, p99), the JavaScript and CSS each page loads,
// compressed as the service sends them (brotli and gzip), and a card moved on the board page (its
// drag's POST, the move_card operation) one at a time. Targets: p95 < 50 ms on the 100,000-ticket
// set; JavaScript < 60 KB and CSS < 30 KB compressed; a move p95 < 100 ms.
// Each run (unless --no-record) appends a line of kind `pages` to bench/runs.jsonl; bench/RESULTS.md
// shows the latest full one (no --tickets, the default --requests) of each engine.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { createPersonalToken } from '../src/auth/personal-tokens.ts';
import { openDatabase } from '../src/storage/database.ts';
import { prepareWorkspace } from '../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../src/workspace/parse.ts';
import { unclaimedNodeNote } from './lib/node-release.ts';
import { machine } from './lib/report.ts';
import { RESULTS, RUNS, scenarioTargets, writeResults } from './lib/results.ts';
import { appendRun, currentCommit, type AssetBytes, type PagesRunRecord, type RecordedPage, type SerialFigures } from './lib/runs.ts';
import { autovacuumNote, pgliteTarget, postgresTarget } from './lib/target.ts';
import { scenarios as boardScenarios } from './scenarios/boards.ts';
import { PAGE_TICKET, PAGES, seedPageSession } from './scenarios/pages.ts';
import { scenarios as ticketScenarios } from './scenarios/tickets.ts';

const DEFAULT_REQUESTS = '300';
const WARM = 20;
const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    requests: { type: 'string', default: DEFAULT_REQUESTS },
    tickets: { type: 'string' },
    'no-record': { type: 'boolean', default: false },
  },
});
if (args.tickets) process.env.BENCH_TICKETS = args.tickets;
const engine = args.engine === 'pglite' ? 'pglite' : 'postgres';
const requests = Number(args.requests);
const host = machine();
const { commit, dirty } = currentCommit();
const date = new Date().toISOString();
const target = engine === 'pglite' ? pgliteTarget() : await postgresTarget();
const database = await openDatabase(target.target);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** `send` once per request, one at a time after a warm-up: p50, p95, p99 (nearest rank, 0.1 ms). */
async function serially(send: (i: number) => Promise<void>): Promise<SerialFigures> {
  for (let i = 0; i < WARM; i += 1) await send(i); // warm: JIT, plans, pool
  const times: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const at = performance.now();
    await send(WARM + i);
    times.push(performance.now() - at);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 10) / 10;
  return { requests, p50Ms: q(0.5), p95Ms: q(0.95), p99Ms: q(0.99) };
}

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
  const { tickets } = await database.db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number>().as('tickets'))
    .executeTakeFirstOrThrow();
  const publicUrl = 'http://127.0.0.1';
  const app = await buildApp({ config: { publicUrl, logLevel: 'warn' }, database, rateLimit: Number.MAX_SAFE_INTEGER });
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
  // every entry of PAGES is measured: a new page (the ticket search page) is added there
  const pages = { ...PAGES, ticket: `/browse/${ticket.key}`, board: '/boards/90', backlog: '/boards/90/backlog' };
  const recorded: RecordedPage[] = [];
  for (const [name, path] of Object.entries(pages)) {
    const get = async () => {
      const response = await fetch(`${url}${path}`, { headers, redirect: 'manual' });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${name} page: ${response.status}`);
      return text;
    };
    const figures = await serially(async () => {
      await get();
    });

    // what the page loads: its scripts and stylesheets, as a browser asking for brotli or gzip receives them
    const html = await get();
    // the page's own HTML, uncompressed: what the server renders and sends for every request
    console.error(`${name}: ${kb(Buffer.byteLength(html))} of HTML, p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms`);
    const assets = [...html.matchAll(/<script src="([^"]+)"|<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1] ?? m[2]!);
    const sizes: { js: AssetBytes; css: AssetBytes } = { js: { br: 0, gzip: 0, raw: 0 }, css: { br: 0, gzip: 0, raw: 0 } };
    for (const asset of assets) {
      const kind = asset.endsWith('.css') ? 'css' : 'js';
      for (const encoding of ['br', 'gzip', 'identity'] as const) {
        const response = await fetch(`${url}${asset}`, { headers: { 'accept-encoding': encoding } });
        // fetch decodes what it receives: the bytes on the wire are the Content-Length the service sent
        const length = Number(response.headers.get('content-length') ?? (await response.arrayBuffer()).byteLength);
        sizes[kind][encoding === 'identity' ? 'raw' : encoding] += length;
      }
    }
    recorded.push({ name, path, ...figures, files: assets.length, ...sizes });
  }

  // a card dragged on the board page: the POST drag.js sends, with the form token the board carries
  // (`data-csrf` beside `data-moves`) and its first column's value. The column's cards are read
  // from the page in rank order and the order is kept here: each request takes the card at a
  // place further along and drops it below the two after it, so every request moves one.
  const board = await (await fetch(`${url}/boards/90`, { headers })).text();
  const action = /data-moves="([^"]+)" data-csrf="([^"]+)"/.exec(board);
  const list = /data-drop="board" data-field="column" data-value="([^"]+)"[^>]*>([\s\S]*?)<\/ul>/.exec(board);
  const order = [...(list?.[2] ?? '').matchAll(/<li class="board-card"[^>]* data-key="([^"]+)"/g)].map((m) => m[1]!);
  if (!action || !list || order.length < 4) throw new Error('the board page carries no move form, or its first column too few cards');
  const [, movesPath, csrf] = action as unknown as [string, string, string];
  const column = list[1]!;
  const move = await serially(async (i) => {
    const at = (i * 7) % (order.length - 3);
    const [key] = order.splice(at, 1) as [string];
    const before = order[at + 2]!;
    order.splice(at + 2, 0, key);
    const response = await fetch(`${url}${movesPath}`, {
      method: 'POST',
      headers: { ...headers, origin: publicUrl, 'hx-request': 'true', 'x-csrf-token': csrf },
      body: new URLSearchParams({ key, column, before }),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`card move: ${response.status} ${text.slice(0, 200)}`);
  });
  await app.close();

  console.log(
    [
      '| Engine | Page | Path | requests, one at a time | p50 ms | p95 ms | p99 ms |',
      '|---|---|---|--:|--:|--:|--:|',
      ...recorded.map((p) => `| ${engine} | ${p.name} | ${p.path} | ${p.requests} | ${p.p50Ms} | ${p.p95Ms} | ${p.p99Ms} |`),
      `| ${engine} | card move | POST ${movesPath} | ${move.requests} | ${move.p50Ms} | ${move.p95Ms} | ${move.p99Ms} |`,
    ].join('\n'),
  );
  console.log('');
  console.log(
    [
      '| Page | files | JS brotli | JS gzip | JS raw | CSS brotli | CSS gzip | CSS raw |',
      '|---|--:|--:|--:|--:|--:|--:|--:|',
      ...recorded.map(
        (p) =>
          `| ${p.name} | ${p.files} | ${kb(p.js.br)} | ${kb(p.js.gzip)} | ${kb(p.js.raw)} | ${kb(p.css.br)} | ${kb(p.css.gzip)} | ${kb(p.css.raw)} |`,
      ),
    ].join('\n'),
  );

  if (!args['no-record']) {
    const notes = [unclaimedNodeNote(), engine === 'postgres' ? await autovacuumNote() : null].filter(
      (note): note is string => note !== null,
    );
    const run: PagesRunRecord = {
      kind: 'pages',
      date,
      commit,
      dirty,
      machine: { cpus: host.cpus, cpuModel: host.cpuModel, memoryGiB: host.memoryGiB, platform: host.platform },
      node: host.node,
      loadAverage: host.loadAverage,
      engine,
      tickets: Number(tickets),
      options: { tickets: args.tickets ?? null, requests },
      full: !args.tickets && args.requests === DEFAULT_REQUESTS,
      pages: recorded,
      move: { name: 'card move', path: movesPath, ...move },
      notes,
    };
    appendRun(RUNS, run);
    const rendered = run.full && writeResults(RUNS, RESULTS, await scenarioTargets());
    console.error(
      `recorded in bench/runs.jsonl${rendered ? '; bench/RESULTS.md made from it' : ' (not a full run: bench/RESULTS.md left as it was)'}`,
    );
  }
} finally {
  await database.close();
  await target.dispose();
}
