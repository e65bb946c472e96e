import { describe, expect, it, vi } from 'vitest';
import { runCli } from './cli-process.ts';

// Each step is a real `node bin/atrium.js` process (and PGlite opening its folder): seconds each.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

// None of these reach a database: the environment and the command line are checked first.
const somewhere = { DATA_DIR: '/nonexistent/atrium-cli-test' };

function expectOneLine(stderr: string) {
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('cli: a bad environment value stops every command with one line naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x'],
    ['ATRIUM_DEMO', 'maybe'],
  ])('%s=%s', async (name, value) => {
    const result = await runCli(['token', 'create', '--member', 'a@example.com', '--name', 'x', '--access', 'read'], {
      ...somewhere,
      [name]: value,
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expectOneLine(result.stderr);
    expect(result.stderr).toContain(`${name}:`);
  });

  it('serve refuses the same way', async () => {
    const result = await runCli(['serve'], { ...somewhere, PORT: '70000' });
    expect(result.code).not.toBe(0);
    expectOneLine(result.stderr);
    expect(result.stderr).toContain('PORT:');
  });
});

describe('cli: a wrong command line is one line saying which option', () => {
  it.each([
    [['token', 'create', '--member', 'a@example.com', '--name', 'x', '--access', 'admin'], '--access'],
    [['token', 'create', '--member', 'a@example.com', '--name', 'x', '--access', 'read', '--expires', '7'], '--expires'],
    [['token', 'create', '--name', 'x', '--access', 'read'], '--member'],
    [['token', 'create', '--member', 'a@example.com', '--access', 'read', '--colour', 'red'], '--colour'],
    [['member', 'add', '--email', 'not-an-address', '--name', 'X'], '--email'],
    [['member', 'add', '--email', 'x@example.com'], '--name'],
    [['settings', 'set', 'wiki', 'on'], 'wiki'],
    [['settings', 'set', 'rest_api', 'maybe'], 'maybe'],
    [['workspace', 'apply'], 'workspace file'],
    [['frobnicate'], 'frobnicate'],
  ])('%j', async (args, named) => {
    const result = await runCli(args, somewhere);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expectOneLine(result.stderr);
    expect(result.stderr).toContain(named);
  });

  it('a missing workspace file is named', async () => {
    const result = await runCli(['workspace', 'apply', 'no-such-file.yaml'], somewhere);
    expect(result.code).toBe(1);
    expectOneLine(result.stderr);
    expect(result.stderr).toContain('no-such-file.yaml');
  });
});

describe('cli: help lists every command', () => {
  it('atrium --help', async () => {
    const result = await runCli(['--help'], somewhere);
    expect(result.code).toBe(0);
    for (const command of ['serve', 'migrate', 'workspace apply', 'member add', 'member set-password', 'member deactivate', 'token create', 'token revoke', 'settings set']) {
      expect(result.stdout).toContain(`atrium ${command}`);
    }
  });

  it('atrium token --help', async () => {
    const result = await runCli(['token', '--help'], somewhere);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--access read|write');
  });
});
