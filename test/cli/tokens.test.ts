import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newWorkspace, runCli, TOKEN, type Workspace } from './cli-process.ts';

// Each step is a real `node bin/atrium.js` process: seconds each.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

// The demo workspace, made once by migrate; the commands below open it themselves (no server).
let workspace: Workspace;
const admin = 'admin@example.com';

beforeAll(async () => {
  workspace = await newWorkspace();
  const created = await runCli(['migrate'], workspace.env);
  if (created.code !== 0) throw new Error(created.stderr);
});

afterAll(async () => {
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
