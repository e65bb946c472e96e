import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  demoAdministrator,
  getMe,
  killLeftovers,
  newWorkspace,
  pageAs,
  runCli,
  startServe,
  TOKEN,
  type ServeProcess,
  type Workspace,
} from './cli-process.ts';

// Each step is a real `node bin/atrium.js` process: seconds each.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

// The demo workspace, made once by migrate, and its server (the page is read from it).
let workspace: Workspace;
let server: ServeProcess;
const admin = 'admin@example.com';

beforeAll(async () => {
  workspace = await newWorkspace();
  const created = await runCli(['migrate'], workspace.env);
  if (created.code !== 0) throw new Error(created.stderr);
  server = await startServe(workspace.env);
});

afterAll(async () => {
  await server?.stop();
  killLeftovers();
  await workspace.remove();
});

function expectRefusedInOneLine(result: { code: number | null; stdout: string; stderr: string }) {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
}

describe('cli: token revoke of a name that matches nothing is refused in one clear line', () => {
  it('a member with no token: says they have none, nothing revoked', async () => {
    const result = await runCli(['token', 'revoke', '--member', admin, '--name', 'no such token'], workspace.env);
    expectRefusedInOneLine(result);
    expect(result.stderr).toContain('has no live personal tokens');
    expect(result.stderr).toContain('nothing revoked');
    expect(result.stderr).not.toContain('are there are none');
  });

  it('a member with tokens: lists their names, nothing revoked', async () => {
    const minted = await runCli(['token', 'create', '--member', admin, '--name', 'kept agent', '--access', 'read'], workspace.env);
    expect(minted.stdout).toMatch(TOKEN);
    const result = await runCli(['token', 'revoke', '--member', admin, '--name', 'no such token'], workspace.env);
    expectRefusedInOneLine(result);
    expect(result.stderr).toContain('no live personal token named "no such token"; their live tokens are "kept agent"; nothing revoked');
  });
});

/** `token list`'s rows by token name: the cells under each header. */
function listRows(stdout: string): Map<string, Record<string, string>> {
  const [header, ...lines] = stdout.trimEnd().split('\n');
  const titles = header!.split(/ {2,}/);
  return new Map(
    lines.map((line) => {
      const cells = line.split(/ {2,}/);
      const row = Object.fromEntries(titles.map((t, i) => [t, cells[i] ?? '']));
      return [row.NAME!, row];
    }),
  );
}

const utc = (cell: string) => Date.parse(`${cell.replace(' UTC', '').replace(' ', 'T')}:00Z`);

describe("cli: token list shows a member's tokens, never a secret", () => {
  let secret = '';

  it('name, access, created, last used and expires for each live token', async () => {
    const minted = await runCli(
      ['token', 'create', '--member', admin, '--name', 'listed agent', '--access', 'write', '--expires', 'never'],
      workspace.env,
    );
    expect(minted.stdout).toMatch(TOKEN);
    secret = minted.stdout.trim();
    expect((await getMe(server.url, secret)).status).toBe(200);
    const result = await runCli(['token', 'list', '--member', (await demoAdministrator()).name], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]!.split(/ {2,}/)).toEqual(['NAME', 'ACCESS', 'CREATED', 'LAST USED', 'EXPIRES']);
    const rows = listRows(result.stdout);
    expect(rows.get('listed agent')).toMatchObject({ ACCESS: 'write', EXPIRES: 'never' });
    expect(rows.get('listed agent')!['LAST USED']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(rows.get('kept agent')).toMatchObject({ ACCESS: 'read', 'LAST USED': 'never' });
  });

  it('neither the secret nor its hash', async () => {
    const result = await runCli(['token', 'list', '--member', admin], workspace.env);
    expect(result.stdout).not.toContain(secret);
    expect(result.stdout).not.toContain('svc_pat_');
    expect(result.stdout).not.toContain(createHash('sha256').update(secret).digest('hex'));
  });

  it('a member with none says so', async () => {
    const result = await runCli(['token', 'list', '--member', 'priya@example.com'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('has no personal tokens');
  });
});

describe('cli: a token made without choosing a lifetime lives as long as one made on the AI agents page', () => {
  it("the page's preselected lifetime is the CLI's default", async () => {
    const minted = await runCli(['token', 'create', '--member', admin, '--name', 'default lifetime', '--access', 'read'], workspace.env);
    expect(minted.code, minted.stderr).toBe(0);
    const row = listRows((await runCli(['token', 'list', '--member', admin], workspace.env)).stdout).get('default lifetime')!;
    const cliDays = Math.round((utc(row.EXPIRES!) - utc(row.CREATED!)) / 86_400_000);

    const { email, password } = await demoAdministrator();
    const page = await pageAs(server.url, email, password, '/agents');
    const select = /<select id="[^"]*" name="lifetime"[^>]*>(.*?)<\/select>/s.exec(page)![1]!;
    const options = [...select.matchAll(/<option value="([^"]+)"( selected)?>/g)];
    // What a browser submits when nobody touches the list: the selected option, else the first.
    const pageDefault = (options.find((o) => o[2]) ?? options[0])![1];
    expect(pageDefault).toBe(String(cliDays));
  });
});
