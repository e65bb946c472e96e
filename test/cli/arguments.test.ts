import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, spawnCli } from './cli-process.ts';

// In-process (runCli) but for serve and --version, which run `node bin/atrium.js` as a shell would.
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
    const result = await spawnCli(['serve'], { ...somewhere, PORT: '70000' });
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

const COMMANDS = [
  'serve',
  'migrate',
  'workspace apply',
  'member add',
  'member set-password',
  'member deactivate',
  'member list',
  'token create',
  'token list',
  'token revoke',
  'settings set',
];

/** Where the second column starts on each line of a two-column block. */
function secondColumns(lines: string[]): number[] {
  return lines.map((line) => /^ {2}\S+(?: \S+)*? {2,}(?=\S)/.exec(line)![0].length);
}

describe('cli: help lists every command, aligned', () => {
  it('atrium --help', async () => {
    const result = await runCli(['--help'], somewhere);
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toContain(`atrium ${command}`);
    const block = result.stdout.split('Commands:\n')[1]!.split('\n\n')[0]!.split('\n');
    expect(block.length).toBeGreaterThanOrEqual(COMMANDS.length);
    expect(new Set(secondColumns(block)).size).toBe(1);
  });

  it('atrium token --help shows each token command in full', async () => {
    const result = await runCli(['token', '--help'], somewhere);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--access read|write');
    for (const command of ['token create', 'token list', 'token revoke']) expect(result.stdout).toContain(`Usage: atrium ${command}`);
  });

  it.each(COMMANDS)('atrium help %s and atrium %s --help say the same, options aligned', async (command) => {
    const words = command.split(' ');
    const viaHelp = await runCli(['help', ...words], somewhere);
    const viaFlag = await runCli([...words, '--help'], somewhere);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(new RegExp(`^Usage: atrium ${command}`));
    expect(viaFlag).toEqual(viaHelp);
    const options = viaHelp.stdout.split('Options:\n')[1];
    if (options) expect(new Set(secondColumns(options.trimEnd().split('\n'))).size).toBe(1);
  });

  it('a group without its subcommand names them', async () => {
    const result = await runCli(['token'], somewhere);
    expect(result.code).toBe(2);
    expectOneLine(result.stderr);
    expect(result.stderr).toContain('create, list, revoke');
  });
});

describe('cli: --version', () => {
  it("prints the package's version", async () => {
    const pkg = JSON.parse(await fs.readFile(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    const result = await spawnCli(['--version'], somewhere);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`atrium ${pkg.version}\n`);
  });
});
