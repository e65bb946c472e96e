import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresServerUrl } from '../helpers/database.ts';
import {
  getMe,
  killLeftovers,
  newWorkspace,
  runCli,
  runShell,
  startServe,
  TOKEN,
  type Env,
  type ServeProcess,
  type Workspace,
} from './cli-process.ts';

// Each step is a real `node bin/atrium.js` process (and PGlite opening its folder): seconds each.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const onPglite = postgresServerUrl() === null;

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

function expectOneLine(stderr: string) {
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('cli: no command but serve and migrate creates a workspace', () => {
  let empty: Workspace;
  // What each command was told: the place it looked at, as its refusal must name it.
  const place = () => (onPglite ? `DATA_DIR=${empty.dataDir}` : `DATABASE_URL=${empty.env.DATABASE_URL}`);

  beforeAll(async () => {
    empty = await newWorkspace();
  });

  afterAll(async () => {
    await empty.remove();
  });

  it.each([
    [['token', 'create', '--member', 'admin@example.com', '--name', 'x', '--access', 'write']],
    [['member', 'add', '--email', 'x@example.com', '--name', 'X']],
    [['member', 'set-password', '--member', 'x@example.com', '--password', 'long enough']],
    [['settings', 'set', 'rest_api', 'on']],
    [['workspace', 'apply', 'examples/demo-workspace.yaml']],
  ])('%j refuses in one line naming the place it looked at, and leaves it empty', async (args) => {
    const result = await runCli(args, empty.env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expectOneLine(result.stderr);
    expect(result.stderr).toContain('no Atrium workspace');
    expect(result.stderr).toContain(place());
    if (onPglite) expect(fs.existsSync(empty.dataDir)).toBe(false);
    else expect(await publicTables(empty.env.DATABASE_URL!)).toBe(0);
  });

  it('migrate creates it (with the demo), and then a command works there', async () => {
    const created = await runCli(['migrate'], empty.env);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain('created a new workspace');
    const minted = await runCli(['token', 'create', '--member', 'admin@example.com', '--name', 'x', '--access', 'write'], empty.env);
    expect(minted.code, minted.stderr).toBe(0);
    expect(minted.stdout).toMatch(TOKEN);
  });
});

describe('cli: the banner of a server on its own DATA_DIR or DATABASE_URL prints commands that reach it', () => {
  let workspace: Workspace;
  let server: ServeProcess;
  let env: Env;
  // A password the banner must never print; the test server trusts local connections, so it is not checked.
  const password = 'not-to-be-shown-9';

  beforeAll(async () => {
    workspace = await newWorkspace();
    // A folder name a shell must be given in quotes.
    const dataDir = path.join(path.dirname(workspace.dataDir), "Bea's data");
    env = { ...workspace.env, DATA_DIR: dataDir };
    if (!onPglite) {
      const url = new URL(workspace.env.DATABASE_URL!);
      url.password = password;
      env.DATABASE_URL = url.href;
    }
    const created = await runCli(['migrate'], env);
    expect(created.code, created.stderr).toBe(0);
    server = await startServe(env);
  });

  afterAll(async () => {
    await server?.stop();
    killLeftovers();
    await workspace.remove();
  });

  const commands = () => server.banner.split('\n').filter((line) => line.includes('npx atrium'));

  it('every command it prints names the database, and no password', () => {
    expect(commands().length).toBeGreaterThan(0);
    for (const line of commands()) {
      expect(line.trim()).toMatch(onPglite ? /^DATA_DIR='[^']*'\\''s data' npx atrium / : /^DATABASE_URL=\S+ npx atrium /);
    }
    expect(server.banner).not.toContain(password);
    if (!onPglite) expect(server.banner).toContain('PGPASSWORD');
  });

  it('its token command, pasted into a shell with no Atrium setting, mints a token this server accepts', async () => {
    const line = commands()
      .find((l) => l.includes('token create'))!
      .trim();
    const result = await runShell(line, onPglite ? {} : { PGPASSWORD: password });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(TOKEN);
    const me = await getMe(server.url, result.stdout.trim());
    expect(me.status).toBe(200);
    expect(me.body.agent?.name).toBe('my agent');
  });
});
