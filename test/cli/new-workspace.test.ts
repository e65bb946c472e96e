import fs from 'node:fs/promises';
import path from 'node:path';
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

// Each step is a real `node bin/atrium.js` process (and PGlite opening its folder): seconds each.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

// ATRIUM_DEMO=off: a workspace created by the CLI has no demo and both ways in switched off (spec 1).
let workspace: Workspace;
let server: ServeProcess | null = null;
let token = '';

beforeAll(async () => {
  workspace = await newWorkspace({ ATRIUM_DEMO: 'off' });
});

afterAll(async () => {
  await server?.stop();
  killLeftovers();
  await workspace.remove();
});

describe('cli: ATRIUM_DEMO=off creates an empty workspace', () => {
  it('migrate creates the workspace without the demo', async () => {
    const result = await runCli(['migrate'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('no demo');
  });

  it('member add adds the first administrator', async () => {
    const result = await runCli(
      ['member', 'add', '--email', 'owner@example.com', '--name', 'Olive Owner', '--admin', '--password', 'correct horse'],
      workspace.env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('added administrator Olive Owner <owner@example.com>');
    expect(result.stderr).toBe('');
  });

  it('the demo administrator does not exist: the miss lists the members there are', async () => {
    const result = await runCli(
      ['token', 'create', '--member', (await demoAdministrator()).email, '--name', 'x', '--access', 'write'],
      workspace.env,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('"owner@example.com"');
  });

  it('token create for the new administrator prints the token alone', async () => {
    const result = await runCli(
      ['token', 'create', '--member', 'Olive Owner', '--name', 'owner agent', '--access', 'write', '--expires', '30'],
      workspace.env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(TOKEN);
    expect(result.stderr).toBe('');
    token = result.stdout.trim();
  });

  it('migrate has nothing left to apply', async () => {
    const result = await runCli(['migrate'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('up to date');
  });
});

describe('cli: in a new workspace the REST API and the MCP server start switched off', () => {
  beforeAll(async () => {
    server = await startServe(workspace.env);
  });

  it('serve says both are off and names the administrator to log in as', () => {
    expect(server!.banner).toContain('The REST API is switched off');
    expect(server!.banner).toContain('The MCP server is switched off');
    expect(server!.banner).toContain('/login as owner@example.com');
    expect(server!.banner).not.toContain('with password');
  });

  it('GET /me is 403 feature_disabled until settings set rest_api on', async () => {
    const before = await getMe(server!.url, token);
    expect(before.status).toBe(403);
    expect(before.body.error?.code).toBe('feature_disabled');
    const result = await runCli(['settings', 'set', 'rest_api', 'on'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    const after = await getMe(server!.url, token);
    expect(after.status).toBe(200);
    expect(after.body.user?.name).toBe('Olive Owner');
  });

  it('settings set of a switch already in that state says so', async () => {
    const result = await runCli(['settings', 'set', 'rest_api', 'on'], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('already on');
  });
});

describe('cli: workspace apply works while the server runs, and names a mistake by its path', () => {
  const file = () => path.join(path.dirname(workspace.dataDir), 'team.yaml');
  const team = `
workspace:
  name: Owner's Team
members:
  - name: Bea Builder
    email: bea@example.com
`;

  it('applies the file and summarizes what it wrote', async () => {
    await fs.writeFile(file(), team);
    const result = await runCli(['workspace', 'apply', file()], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('applied team.yaml: ');
    expect(result.stdout).toContain('members: 1 created');
    const minted = await runCli(['token', 'create', '--member', 'Bea Builder', '--name', 'bea agent', '--access', 'read'], workspace.env);
    expect(minted.code, minted.stderr).toBe(0);
    expect((await getMe(server!.url, minted.stdout.trim())).body.user?.name).toBe('Bea Builder');
  });

  it('applying the same file again changes nothing', async () => {
    const result = await runCli(['workspace', 'apply', file()], workspace.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('nothing changed');
  });

  it('the apply that changed something is in the audit log, by the command line; the one that changed nothing is not', async () => {
    const audit = await pageAs(server!.url, 'owner@example.com', 'correct horse', '/admin/audit');
    const rows = audit
      .split('<tbody>')[1]!
      .split('</tr>')
      .filter((r) => r.includes('<td data-label="What">workspace.applied</td>'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('atrium CLI');
    expect(rows[0]).toContain('workspace file team.yaml');
    expect(rows[0]).toContain('members');
  });

  it('a mistake is one line naming its place in the file, and nothing is applied', async () => {
    await fs.writeFile(file(), `${team}  - name: Cy Nobody\n    email: cy@example.com\n    colour: blue\n`);
    const result = await runCli(['workspace', 'apply', file()], workspace.env);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('members[1]');
    const cy = await runCli(['token', 'create', '--member', 'cy@example.com', '--name', 'x', '--access', 'read'], workspace.env);
    expect(cy.code).toBe(1);
    expect(cy.stderr).toContain('no member "cy@example.com"');
  });
});
