import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminQuery, postgresServerUrl } from '../helpers/database.ts';
import { getMe, killLeftovers, newWorkspace, runCli, startServe, TOKEN, type ServeProcess, type Workspace } from './cli-process.ts';

// ADR 0025: a backup restored into a new place, and a server started there, gives back what was
// made through the API before the backup — tickets, comments — and accepts the same tokens (a
// backup is the whole database: whoever holds one holds the tokens in it). PGlite through
// `atrium backup` / `atrium restore`; PostgreSQL through pg_dump / pg_restore, as docs/operations.md says.

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const onPostgres = postgresServerUrl() !== null;
const run = promisify(execFile);

interface Made {
  token: string;
  key: string;
}

async function api(url: string, token: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // any: each test reads the fields it needs.
  return { status: response.status, body: (await response.json()) as any };
}

/** A token minted by the CLI, a ticket and a comment on it made through the API. */
async function makeData(workspace: Workspace, url: string): Promise<Made> {
  const minted = await runCli(
    ['token', 'create', '--member', 'admin@example.com', '--name', 'backup agent', '--access', 'write', '--expires', 'never'],
    workspace.env,
  );
  expect(minted.stdout, minted.stderr).toMatch(TOKEN);
  const token = minted.stdout.trim();
  const ticket = await api(url, token, 'POST', '/tickets', { project: 'ATR', summary: 'Made before the backup' });
  expect(ticket.status).toBe(201);
  const comment = await api(url, token, 'POST', `/tickets/${ticket.body.key}/comments`, { body: 'Kept by the backup' });
  expect(comment.status).toBe(201);
  return { token, key: ticket.body.key };
}

/** What a restored server must give back: the ticket, its comment, and the token still answering. */
async function expectDataBack(url: string, made: Made) {
  expect((await getMe(url, made.token)).status).toBe(200);
  const ticket = await api(url, made.token, 'GET', `/tickets/${made.key}`);
  expect(ticket.status).toBe(200);
  expect(ticket.body.summary).toBe('Made before the backup');
  expect(ticket.body.comments.map((c: { body: { text: string } }) => c.body.text)).toEqual(['Kept by the backup']);
}

async function temporaryFolder(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'atrium-backup-'));
}

afterAll(() => killLeftovers());

describe.runIf(!onPostgres)('backup and restore on PGlite: atrium backup, atrium restore into a new DATA_DIR', () => {
  let workspace: Workspace;
  let folder: string;
  let server: ServeProcess | null = null;
  let made: Made;
  const restoredDir = () => path.join(folder, 'restored');
  const file = () => path.join(folder, 'atrium.tar.gz');

  beforeAll(async () => {
    folder = await temporaryFolder();
    workspace = await newWorkspace();
    const created = await runCli(['migrate'], workspace.env);
    if (created.code !== 0) throw new Error(created.stderr);
    server = await startServe(workspace.env);
    made = await makeData(workspace, server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await workspace?.remove();
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('backs up while the server runs (the command runs inside it), in one file', async () => {
    const result = await runCli(['backup', file()], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`backed up the workspace to ${file()}`);
    expect((await fs.stat(file())).size).toBeGreaterThan(0);
    expect((await fs.readdir(folder)).filter((name) => name.includes('.partial-'))).toEqual([]);
  });

  it('restores into a new DATA_DIR; a server started there gives back the tickets, comments and tokens', async () => {
    // A change after the backup: not in it.
    const later = await api(server!.url, made.token, 'POST', '/tickets', { project: 'ATR', summary: 'Made after the backup' });
    expect(later.status).toBe(201);
    expect(await server!.stop()).toBe(0);
    server = null;
    const result = await runCli(['restore', file()], { DATA_DIR: restoredDir() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`start the server on it: DATA_DIR=${restoredDir()} npx atrium serve`);
    const restored = await startServe({ DATA_DIR: restoredDir() });
    try {
      await expectDataBack(restored.url, made);
      expect((await api(restored.url, made.token, 'GET', `/tickets/${later.body.key}`)).status).toBe(404);
    } finally {
      expect(await restored.stop()).toBe(0);
    }
  });

  it('backs up a stopped server too, in the command process itself', async () => {
    const again = path.join(folder, 'stopped.tar.gz');
    const result = await runCli(['backup', again], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect((await fs.stat(again)).size).toBeGreaterThan(0);
  });

  it('refuses to restore over a database, and leaves it as it was', async () => {
    const result = await runCli(['restore', file()], { DATA_DIR: restoredDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('already holds a database; restore into a new DATA_DIR, or move this one aside first');
    const check = await startServe({ DATA_DIR: restoredDir() });
    try {
      await expectDataBack(check.url, made);
    } finally {
      await check.stop();
    }
  });

  it('refuses a file that is not a backup, and leaves no database behind', async () => {
    const notBackup = path.join(folder, 'not-a-backup.tar.gz');
    await fs.writeFile(notBackup, 'just some text');
    const target = path.join(folder, 'empty');
    const result = await runCli(['restore', notBackup], { DATA_DIR: target });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a backup of an Atrium workspace (made by "atrium backup"); nothing restored');
    expect(await fs.readdir(target)).toEqual([]);
    const missing = await runCli(['restore', path.join(folder, 'nowhere.tar.gz')], { DATA_DIR: target });
    expect(missing.stderr).toContain('no such file');
  });
});

describe.runIf(onPostgres)('backup and restore on PostgreSQL: pg_dump, pg_restore into a new database', () => {
  const serverUrl = postgresServerUrl()!;
  let workspace: Workspace;
  let folder: string;
  const restoredName = `atrium_restored_${randomBytes(4).toString('hex')}`;

  const admin = (query: string) => adminQuery(serverUrl, query);

  beforeAll(async () => {
    folder = await temporaryFolder();
    workspace = await newWorkspace();
    const created = await runCli(['migrate'], workspace.env);
    if (created.code !== 0) throw new Error(created.stderr);
  });
  afterAll(async () => {
    await workspace?.remove();
    await admin(`drop database if exists ${restoredName} with (force)`);
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('a dump taken while the server runs, restored into a new database, gives back the tickets, comments and tokens', async () => {
    const server = await startServe(workspace.env);
    let made: Made;
    const dump = path.join(folder, 'atrium.dump');
    try {
      made = await makeData(workspace, server.url);
      await run('pg_dump', ['--format=custom', `--file=${dump}`, workspace.env.DATABASE_URL!]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    await admin(`create database ${restoredName}`);
    const restoredUrl = new URL(serverUrl);
    restoredUrl.pathname = `/${restoredName}`;
    await run('pg_restore', ['--no-owner', '--single-transaction', '--exit-on-error', `--dbname=${restoredUrl.href}`, dump]);
    const restored = await startServe({ DATABASE_URL: restoredUrl.href, DATA_DIR: path.join(folder, 'data') });
    try {
      await expectDataBack(restored.url, made);
    } finally {
      expect(await restored.stop()).toBe(0);
    }
  });

  it('atrium backup and restore send the operator to pg_dump and pg_restore', async () => {
    for (const command of ['backup', 'restore']) {
      const result = await runCli([command, path.join(folder, 'x.tar.gz')], workspace.env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('on PostgreSQL (DATABASE_URL) use its own tools: pg_dump --format=custom');
    }
  });
});

describe('backup and restore: a command line without its file is refused with an example', () => {
  it('names the command and shows the file it wants (exit status 2)', async () => {
    for (const command of ['backup', 'restore']) {
      const result = await runCli([command], { DATA_DIR: path.join(os.tmpdir(), 'atrium-no-such-folder') });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${command}: give the backup file, e.g. "atrium ${command} atrium-backup.tar.gz"`);
    }
  });
});
