import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresServerUrl } from '../helpers/database.ts';
import {
  demoAdministrator,
  getMe,
  killLeftovers,
  logIn,
  newWorkspace,
  pageAs,
  runCli,
  spawnCli,
  startServe,
  TOKEN,
  type ServeProcess,
  type Workspace,
} from './cli-process.ts';

// Each step is a real `node bin/atrium.js` process (and PGlite opening its folder): seconds each.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const onPglite = postgresServerUrl() === null;

// One workspace with the demo, one server start: every rule below runs against it in order.
let workspace: Workspace;
let admin: { name: string; email: string; password: string };
let firstToken = '';
let server: ServeProcess | null = null;

const tokenCreate = (member: string, name: string, access = 'write') =>
  runCli(['token', 'create', '--member', member, '--name', name, '--access', access], workspace.env);

beforeAll(async () => {
  workspace = await newWorkspace();
  admin = await demoAdministrator();
});

afterAll(async () => {
  await server?.stop();
  killLeftovers();
  await workspace.remove();
});

describe('cli: migrate creates the workspace with the demo', () => {
  it('migrate on a new database says it created the demo workspace', async () => {
    const result = await runCli(['migrate'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('with the demo workspace');
  });

  it('token create then prints the token alone on stdout', async () => {
    // a real process: nothing else (a warning, a log line) may reach its stdout
    const result = await spawnCli(
      ['token', 'create', '--member', admin.email, '--name', 'first agent', '--access', 'write'],
      workspace.env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(TOKEN);
    expect(result.stderr).toBe('');
    firstToken = result.stdout.trim();
  });
});

describe('cli: serve prints the address, the demo administrator and the token command', () => {
  beforeAll(async () => {
    server = await startServe(workspace.env);
  });

  it('names the login page, the administrator and their demo password', () => {
    expect(server!.banner).toContain(`/login as ${admin.email} with password ${admin.password}`);
    expect(server!.banner).toContain(`npx atrium token create --member ${admin.email} --name "my agent" --access write`);
  });

  it('that login works on the login page', async () => {
    expect(await logIn(server!.url, admin.email, admin.password)).toBe(303);
  });

  it('the token minted before start answers GET /me as the administrator', async () => {
    const me = await getMe(server!.url, firstToken);
    expect(me.status).toBe(200);
    expect(me.body.user?.name).toBe(admin.name);
    expect(me.body.agent).toEqual({ name: 'first agent', access: 'write' });
  });

  if (onPglite) {
    it('on PGlite it listens on a control socket in the data folder that only its owner may open', () => {
      const stat = fs.statSync(path.join(workspace.dataDir, 'atrium.sock'));
      expect(stat.isSocket()).toBe(true);
      expect(stat.mode & 0o777).toBe(0o600);
    });
  } else {
    it('on PostgreSQL it holds no data folder, so commands open the database themselves', () => {
      expect(fs.existsSync(path.join(workspace.dataDir, 'atrium.lock'))).toBe(false);
      expect(fs.existsSync(path.join(workspace.dataDir, 'atrium.sock'))).toBe(false);
    });
  }
});

describe('cli: with the server running, commands work (through it on PGlite)', () => {
  it('token create prints a token that works at once', async () => {
    const result = await tokenCreate(admin.name, 'second agent', 'read');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(TOKEN);
    const me = await getMe(server!.url, result.stdout.trim());
    expect(me.status).toBe(200);
    expect(me.body.agent).toEqual({ name: 'second agent', access: 'read' });
  });

  it('an unknown member is one line listing the candidates', async () => {
    const result = await tokenCreate('nobody-like-this', 'x');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('no member "nobody-like-this"');
    expect(result.stderr).toContain(`"${admin.email}"`);
  });
});

describe('cli: settings set switches the REST API for the running server', () => {
  it('rest_api off: the same token gets 403 feature_disabled', async () => {
    const result = await runCli(['settings', 'set', 'rest_api', 'off'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('switched the REST API off');
    const me = await getMe(server!.url, firstToken);
    expect(me.status).toBe(403);
    expect(me.body.error?.code).toBe('feature_disabled');
  });

  it('rest_api on again: the same token works', async () => {
    const result = await runCli(['settings', 'set', 'rest_api', 'on'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect((await getMe(server!.url, firstToken)).status).toBe(200);
  });

  it('each switch turned is in the audit log, made by the command line', async () => {
    const audit = await pageAs(server!.url, admin.email, admin.password, '/admin/audit');
    const rows = audit.split('<tbody>')[1]!.split('</tr>').slice(0, 2);
    for (const row of rows) {
      expect(row).toContain('atrium CLI');
      expect(row).toContain('workspace setting rest_api');
    }
  });
});

describe('cli: members added, deactivated and tokens revoked take effect at once', () => {
  const email = 'grace.hopper@example.com';
  let graceToken = '';

  it('member add, then a token for the new member answers GET /me', async () => {
    const added = await runCli(['member', 'add', '--email', email, '--name', 'Grace Hopper', '--password', 'cobol-1959'], workspace.env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).not.toContain('cobol-1959');
    const minted = await tokenCreate(email, 'grace agent');
    expect(minted.code, minted.stderr).toBe(0);
    graceToken = minted.stdout.trim();
    const me = await getMe(server!.url, graceToken);
    expect(me.status).toBe(200);
    expect(me.body.user?.name).toBe('Grace Hopper');
    expect(await logIn(server!.url, email, 'cobol-1959')).toBe(303);
  });

  it('member add refuses an address already taken', async () => {
    const again = await runCli(['member', 'add', '--email', email.toUpperCase(), '--name', 'Another Grace'], workspace.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Grace Hopper');
  });

  it('member set-password reads the password from stdin and never echoes it', async () => {
    const result = await spawnCli(['member', 'set-password', '--member', 'grace hopper'], workspace.env, 'a-new-secret-9\n');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Grace Hopper');
    expect(result.stdout + result.stderr).not.toContain('a-new-secret-9');
    expect(await logIn(server!.url, email, 'a-new-secret-9')).toBe(303);
    expect(await logIn(server!.url, email, 'cobol-1959')).toBe(401);
    // spec 5.1: changing a password does not revoke tokens
    expect((await getMe(server!.url, graceToken)).status).toBe(200);
  });

  it('member deactivate makes that member’s token 401', async () => {
    const result = await runCli(['member', 'deactivate', '--member', email], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    const me = await getMe(server!.url, graceToken);
    expect(me.status).toBe(401);
    expect(me.body.error?.code).toBe('invalid_token');
  });

  it('a deactivated member gets no new token', async () => {
    const result = await tokenCreate(email, 'another');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('deactivated');
  });

  it('member add, set-password and deactivate are in the audit log, by the command line, never the password', async () => {
    const audit = await pageAs(server!.url, admin.email, admin.password, '/admin/audit');
    const rows = audit.split('<tbody>')[1]!.split('</tr>');
    for (const action of ['member.created', 'member.password_set', 'member.deactivated']) {
      const row = rows.find((r) => r.includes(`<td data-label="What">${action}</td>`));
      expect(row, action).toBeDefined();
      expect(row).toContain('atrium CLI');
      expect(row).toContain('member Grace Hopper');
    }
    expect(audit).not.toContain('cobol-1959');
    expect(audit).not.toContain('a-new-secret-9');
  });

  it('member list shows every member with role and status', async () => {
    const result = await runCli(['member', 'list'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/ {2,}/));
    expect(lines[0]).toEqual(['NAME', 'EMAIL', 'USERNAME', 'ROLE', 'STATUS']);
    expect(lines.find((cells) => cells[0] === admin.name)).toEqual([
      admin.name,
      admin.email,
      expect.any(String),
      'administrator',
      'active',
    ]);
    expect(lines.find((cells) => cells[0] === 'Grace Hopper')).toEqual([
      'Grace Hopper',
      email,
      expect.any(String),
      'member',
      'deactivated',
    ]);
  });

  it('token revoke makes the named token 401 and leaves the others working', async () => {
    const minted = await tokenCreate(admin.email, 'short-lived');
    const doomed = minted.stdout.trim();
    expect((await getMe(server!.url, doomed)).status).toBe(200);
    const result = await runCli(['token', 'revoke', '--member', admin.email, '--name', 'Short-Lived'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect((await getMe(server!.url, doomed)).status).toBe(401);
    expect((await getMe(server!.url, firstToken)).status).toBe(200);
  });

  it('token revoke of a name the member has not lists their tokens', async () => {
    const result = await runCli(['token', 'revoke', '--member', admin.email, '--name', 'no such token'], workspace.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"first agent"');
  });
});

describe('cli: serve stops cleanly on SIGTERM and leaves the folder usable', () => {
  it('exits 0, removes its socket and releases the folder', async () => {
    const code = await server!.stop();
    server = null;
    expect(code).toBe(0);
    expect(fs.existsSync(path.join(workspace.dataDir, 'atrium.sock'))).toBe(false);
    expect(fs.existsSync(path.join(workspace.dataDir, 'atrium.lock'))).toBe(false);
  });

  it('a command then opens the database itself and finds everything kept', async () => {
    const result = await runCli(['migrate'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('up to date');
    const revoke = await runCli(['token', 'revoke', '--member', admin.email, '--name', 'second agent'], workspace.env);
    expect(revoke.code, revoke.stderr).toBe(0);
  });
});

// Only PGlite has a data folder to hold.
if (onPglite) {
  describe('cli: a folder held by a process that does not answer fails at once', () => {
    it('names the folder and the process', async () => {
      // This test process is alive and serves no socket: exactly a server that is stuck or starting.
      fs.writeFileSync(path.join(workspace.dataDir, 'atrium.lock'), String(process.pid));
      try {
        const result = await runCli(['settings', 'set', 'mcp', 'off'], workspace.env);
        expect(result.code).toBe(1);
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(result.stderr).toContain(`in use by Atrium process ${process.pid}`);
        expect(result.stderr).toContain('does not answer');
      } finally {
        fs.rmSync(path.join(workspace.dataDir, 'atrium.lock'));
      }
    });
  });
}
