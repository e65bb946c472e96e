import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresServerUrl } from '../helpers/database.ts';
import { newWorkspace, spawnCli, type Workspace } from './cli-process.ts';

// Each step is a real `node bin/atrium.js` process: seconds each.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

function expectOnePlainLine(result: { code: number | null; stdout: string; stderr: string }) {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toContain('unexpected error');
}

function listening(server: net.Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listening(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Where no PostgreSQL runs for the suite, a stand-in that answers every connection as PostgreSQL
 * answers one naming a database it does not have (ErrorResponse, SQLSTATE 3D000).
 */
async function missingDatabaseServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.once('data', (startup) => {
      const database = /database\0([^\0]*)\0/.exec(startup.toString('latin1'))?.[1] ?? '';
      const fields = `${['SFATAL', 'VFATAL', 'C3D000', `Mdatabase "${database}" does not exist`].map((f) => `${f}\0`).join('')}\0`;
      const body = Buffer.from(fields, 'utf8');
      const header = Buffer.alloc(5);
      header.write('E', 0, 'latin1');
      header.writeInt32BE(body.length + 4, 1);
      socket.end(Buffer.concat([header, body]));
    });
    socket.on('error', () => {});
  });
  const port = await listening(server);
  return { url: `postgres://atrium@127.0.0.1:${port}/postgres`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function publicTables(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>(`select count(*) as n from information_schema.tables where table_schema = 'public'`);
    return Number(result.rows[0]!.n);
  } finally {
    await client.end();
  }
}

describe('cli: serve on a port in use says so before it creates anything', () => {
  let workspace: Workspace;
  const occupant = net.createServer();
  let port = 0;

  beforeAll(async () => {
    workspace = await newWorkspace();
    port = await listening(occupant);
  });

  afterAll(async () => {
    await new Promise((resolve) => occupant.close(resolve));
    await workspace.remove();
  });

  it('one line naming PORT and the port; no data folder or tables made', async () => {
    const result = await spawnCli(['serve'], { ...workspace.env, PORT: String(port) });
    expectOnePlainLine(result);
    expect(result.stderr).toContain(`PORT: ${port} is already in use`);
    expect(fs.existsSync(workspace.dataDir)).toBe(false);
    if (workspace.engine === 'postgres') expect(await publicTables(workspace.env.DATABASE_URL!)).toBe(0);
  });
});

describe('cli: serve on a HOST it cannot listen on names HOST', () => {
  it.each([
    ['a name that does not resolve', 'no-such-host.invalid', 'does not resolve'],
    ['an address of another machine', '192.0.2.1', 'not an address of this machine'],
  ])('%s', async (_what, host, says) => {
    const result = await spawnCli(['serve'], { DATA_DIR: '/nonexistent/atrium-host-test', HOST: host, PORT: '0' });
    expectOnePlainLine(result);
    expect(result.stderr).toContain(`HOST: `);
    expect(result.stderr).toContain(host);
    expect(result.stderr).toContain(says);
  });
});

describe('cli: a PostgreSQL database that does not exist is one line saying createdb', () => {
  let server: { url: string; close(): Promise<void> };
  let url = '';

  beforeAll(async () => {
    const real = postgresServerUrl();
    server = real ? { url: real, close: async () => {} } : await missingDatabaseServer();
    const target = new URL(server.url);
    target.pathname = '/atrium_not_created';
    url = target.href;
  });

  afterAll(async () => {
    await server.close();
  });

  it.each([[['serve']], [['migrate']], [['token', 'create', '--member', 'a@example.com', '--name', 'x', '--access', 'read']]])(
    '%j',
    async (args) => {
      const result = await spawnCli(args, { DATABASE_URL: url });
      expectOnePlainLine(result);
      expect(result.stderr).toContain('DATABASE_URL: ');
      expect(result.stderr).toContain('"atrium_not_created" does not exist');
      expect(result.stderr).toMatch(/createdb( -\S+ \S+)* atrium_not_created$/m);
    },
  );

  it('nothing listening at the address is one line naming it', async () => {
    const port = await closedPort();
    const result = await spawnCli(['serve'], { DATABASE_URL: `postgres://atrium@127.0.0.1:${port}/atrium` });
    expectOnePlainLine(result);
    expect(result.stderr).toContain(`DATABASE_URL: nothing answers at 127.0.0.1:${port}`);
  });

  it.runIf(postgresServerUrl() !== null)('a direct URL nothing answers at is one line naming it', async () => {
    const port = await closedPort();
    const result = await spawnCli(['migrate'], {
      DATABASE_URL: postgresServerUrl()!,
      DATABASE_POOLER: 'transaction',
      DATABASE_DIRECT_URL: `postgres://atrium@127.0.0.1:${port}/atrium`,
    });
    expectOnePlainLine(result);
    expect(result.stderr).toContain(`DATABASE_DIRECT_URL: nothing answers at 127.0.0.1:${port}`);
  });
});
