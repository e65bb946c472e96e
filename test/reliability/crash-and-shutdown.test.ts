import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/storage/database.ts';
import { newWorkspace, runCli, type Workspace } from '../cli/cli-process.ts';

// ADR 0017: a real server process under load — SIGTERM finishes what it accepted
// and loses nothing acknowledged; kill -9 loses nothing acknowledged and leaves nothing
// half-written. On PGlite here, on PostgreSQL in CI's PostgreSQL pass. Prints its figures.

// Each test starts a real server on a new workspace (the demo seeded) and reopens its database
// afterwards: about 20 s on a quiet machine, past the default 30 s on a busy one.
vi.setConfig({ testTimeout: 180_000 });

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/atrium.js');

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

function serve(workspace: Workspace): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...workspace.env };
  for (const name of ['PUBLIC_URL', 'ATRIUM_DEMO']) delete env[name];
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let stderr = '';
    const guard = setTimeout(() => reject(new Error(`no banner: ${stderr}`)), 90_000);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      const address = /\(listening on (http:\/\/[^)]+)\)/.exec(stderr);
      if (address && stderr.includes('Stop with Ctrl+C.')) {
        clearTimeout(guard);
        resolve({ child, url: address[1]!, exited });
      }
    });
  });
}

interface Outcome {
  status: number | 'reset';
  body: { key?: string; id?: string } | null;
  sentBeforeSignal: boolean;
}

/** Keeps `clients` loops of `make()` requests going until stopped; every request's outcome is kept. */
function load(url: string, token: string, make: (n: number) => { path: string; body: unknown }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const outcomes: Outcome[] = [];
  let running = true;
  let signalled = false;
  let n = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const { path: route, body } = make(n++);
      const sentBeforeSignal = !signalled;
      const target = new URL(route, url);
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (d: string) => (text += d));
          response.on('end', () => {
            outcomes.push({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null, sentBeforeSignal });
            resolve();
          });
        },
      );
      request.on('error', () => {
        outcomes.push({ status: 'reset', body: null, sentBeforeSignal });
        resolve();
      });
      request.end(JSON.stringify(body));
    });
  const loops = Array.from({ length: 16 }, async () => {
    while (running) await one();
  });
  return {
    outcomes,
    signal: () => (signalled = true),
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

async function mint(workspace: Workspace): Promise<string> {
  const result = await runCli(['token', 'create', '--member', 'admin@example.com', '--name', 'load', '--access', 'write'], workspace.env);
  if (result.code !== 0) throw new Error(result.stderr);
  return result.stdout.trim();
}

const workspaces: Workspace[] = [];
afterAll(async () => {
  for (const workspace of workspaces) await workspace.remove();
});

async function reopen(workspace: Workspace) {
  return openDatabase(
    workspace.engine === 'postgres'
      ? { engine: 'postgres', url: workspace.env.DATABASE_URL! }
      : { engine: 'pglite', dataDir: workspace.dataDir },
  );
}

describe('graceful shutdown: SIGTERM finishes what the server accepted and loses nothing it acknowledged', () => {
  it('answers every request sent before the signal (201 or 503), exits 0, and keeps every acknowledged ticket', async () => {
    const workspace = await newWorkspace();
    workspaces.push(workspace);
    const server = await serve(workspace);
    const token = await mint(workspace);
    const traffic = load(server.url, token, (n) => ({ path: '/api/v1/tickets', body: { project: 'ATR', summary: `Shutdown load ${n}` } }));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    traffic.signal();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await traffic.stop();

    const before = traffic.outcomes.filter((o) => o.sentBeforeSignal);
    const acknowledged = traffic.outcomes.filter((o) => o.status === 201).map((o) => o.body!.key!);
    expect(before.filter((o) => o.status === 'reset')).toEqual([]);
    expect(before.every((o) => o.status === 201 || o.status === 503)).toBe(true);

    const database = await reopen(workspace);
    try {
      const stored = await database.db.selectFrom('tickets').select('key').where('key', 'in', acknowledged).execute();
      expect(stored.length).toBe(acknowledged.length);
      console.log(
        `shutdown (${workspace.engine}): ${before.length} requests sent before SIGTERM, ${acknowledged.length} acknowledged, ${stored.length} kept, ${before.filter((o) => o.status === 503).length} told 503, 0 reset`,
      );
    } finally {
      await database.close();
    }
  });
});

describe('crash safety: kill -9 mid-load loses nothing acknowledged and leaves nothing half-written', () => {
  it('keeps every acknowledged ticket, comment and worklog, each ticket with its history and search document', async () => {
    const workspace = await newWorkspace();
    workspaces.push(workspace);
    const server = await serve(workspace);
    const token = await mint(workspace);
    const traffic = load(server.url, token, (n) => {
      if (n % 3 === 0)
        return { path: '/api/v1/tickets', body: { project: 'ATR', summary: `Crash load ${n}`, description: `crashword ${n}` } };
      if (n % 3 === 1) return { path: '/api/v1/tickets/ATR-1/comments', body: { body: `Crash comment ${n}` } };
      return { path: '/api/v1/tickets/ATR-1/worklogs', body: { time_spent: '5m', body: `Crash work ${n}` } };
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    server.child.kill('SIGKILL');
    await server.exited;
    await traffic.stop();

    const ok = traffic.outcomes.filter((o) => o.status === 201).map((o) => o.body!);
    const tickets = ok.filter((b) => b.key).map((b) => b.key!);
    const ids = ok.filter((b) => !b.key).map((b) => b.id!);
    const database = await reopen(workspace);
    try {
      const keptTickets = await database.db
        .selectFrom('tickets')
        .select('key')
        .where('key', 'in', tickets.length ? tickets : ['none'])
        .execute();
      const keptComments = await database.db
        .selectFrom('comments')
        .select('id')
        .where('id', 'in', ids.length ? ids : ['00000000-0000-0000-0000-000000000000'])
        .execute();
      const keptWorklogs = await database.db
        .selectFrom('worklogs')
        .select('id')
        .where('id', 'in', ids.length ? ids : ['00000000-0000-0000-0000-000000000000'])
        .execute();
      expect(keptTickets.length).toBe(tickets.length);
      expect(keptComments.length + keptWorklogs.length).toBe(ids.length);
      // nothing half-written: every ticket has its created history entry and a search document
      const orphans = await database.db
        .selectFrom('tickets as t')
        .select('t.key')
        .where((eb) =>
          eb.not(
            eb.exists(eb.selectFrom('history as h').select('h.id').whereRef('h.entity_id', '=', 't.id').where('h.kind', '=', 'created')),
          ),
        )
        .execute();
      expect(orphans).toEqual([]);
      const unindexed = await database.db
        .selectFrom('tickets')
        .select('key')
        .where('key', 'in', tickets.length ? tickets : ['none'])
        .where('search_vector', '=', '')
        .execute();
      expect(unindexed).toEqual([]);
      console.log(
        `crash (${workspace.engine}): ${traffic.outcomes.length} requests, ${ok.length} acknowledged (${tickets.length} tickets, ${ids.length} comments and worklogs), 0 lost`,
      );
    } finally {
      await database.close();
    }
  });
});
