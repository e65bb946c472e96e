import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunAs } from './cli-process.ts';

// bin/atrium.js runs a copy of src/ with the types stripped (dist/), made again when a source
// changes, so that no TypeScript stripper stays in a running service. Each case works on a copy
// of the repository's bin/ and src/, so that the suite's own dist/ is never touched.

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const canStrip = typeof module.stripTypeScriptTypes === 'function';
// root may write anywhere: the unwritable case runs as "nobody", for whom permissions count.
const as: RunAs | undefined = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

let copy = '';

beforeAll(async () => {
  copy = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-compiled-'));
  await fs.cp(path.join(ROOT, 'bin'), path.join(copy, 'bin'), { recursive: true });
  await fs.cp(path.join(ROOT, 'src'), path.join(copy, 'src'), { recursive: true });
  await fs.copyFile(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
  await fs.symlink(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  await fs.chmod(copy, 0o755);
});

afterAll(async () => {
  await fs.chmod(copy, 0o755).catch(() => {});
  await fs.rm(copy, { recursive: true, force: true });
});

/** `node [options] bin/atrium.js --version` in the copy. */
function version(nodeOptions: string[] = [], runAs?: RunAs) {
  return run(process.execPath, [...nodeOptions, path.join(copy, 'bin/atrium.js'), '--version'], { cwd: copy, encoding: 'utf8', ...runAs });
}

async function changeVersionLine(word: string) {
  const file = path.join(copy, 'src/cli/dispatch.ts');
  const text = await fs.readFile(file, 'utf8');
  await fs.writeFile(file, text.replace(/`atrium[\w-]* \$\{version\(\)\}`/, `\`${word} \${version()}\``));
}

describe.runIf(canStrip)('the CLI runs from dist/, the sources with their types stripped', () => {
  it('runs with Node’s own type stripping switched off, and leaves the fingerprint of what it was made from', async () => {
    const { stdout, stderr } = await version(['--no-experimental-strip-types']);
    expect(stdout).toBe('atrium 0.1.0\n');
    expect(stderr).toBe('');
    expect(await fs.readFile(path.join(copy, 'dist/.sources-fingerprint'), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('imports no .ts file: every module of dist/ loads where Node cannot strip types', async () => {
    const files = (await fs.readdir(path.join(copy, 'dist'), { recursive: true })).filter(
      (file) => file.endsWith('.js') && file !== 'cli.js',
    );
    expect(files.length).toBeGreaterThan(300);
    for (const file of files)
      expect(await fs.readFile(path.join(copy, 'dist', file), 'utf8'), file).not.toMatch(/['"]\.{1,2}\/[^'"\n]*\.ts['"]/);
    const script = `for (const f of ${JSON.stringify(files)}) await import(${JSON.stringify(`${copy}/dist/`)} + f); console.log('loaded')`;
    const { stdout } = await run(process.execPath, ['--no-experimental-strip-types', '--input-type=module', '-e', script], {
      cwd: copy,
      encoding: 'utf8',
    });
    expect(stdout).toBe('loaded\n');
  });

  it('keeps lines and columns, so that a stack trace points into the source', async () => {
    const source = await fs.readFile(path.join(copy, 'src/main.ts'), 'utf8');
    const compiled = await fs.readFile(path.join(copy, 'dist/main.js'), 'utf8');
    expect(compiled.split('\n').length).toBe(source.split('\n').length);
    expect(compiled.indexOf('export async function startService(')).toBe(source.indexOf('export async function startService('));
  });
});

describe.runIf(canStrip)('a change to a source makes dist/ again before the CLI runs', () => {
  it('runs the changed source the next time', async () => {
    await version();
    await changeVersionLine('atrium-changed');
    const { stdout, stderr } = await version(['--no-experimental-strip-types']);
    expect(stdout).toBe('atrium-changed 0.1.0\n');
    expect(stderr).toBe('');
  });

  it('makes it again when the code that makes it changes', async () => {
    const fingerprint = path.join(copy, 'dist/.sources-fingerprint');
    const before = await fs.readFile(fingerprint, 'utf8');
    await fs.appendFile(path.join(copy, 'bin/compile-sources.js'), '// changed\n');
    await version();
    expect(await fs.readFile(fingerprint, 'utf8')).not.toBe(before);
  });
});

describe.runIf(canStrip)('where dist/ cannot be written, the sources run as they are, with one line saying why', () => {
  it('answers from the sources and names the folder it could not write', async () => {
    await changeVersionLine('atrium-unwritable');
    await fs.chmod(copy, 0o555);
    try {
      const { stdout, stderr } = await version([], as);
      expect(stdout).toBe('atrium-unwritable 0.1.0\n');
      expect(stderr).toContain(`atrium: running the TypeScript sources as they are (could not write ${path.join(copy, 'dist')}`);
    } finally {
      await fs.chmod(copy, 0o755);
    }
  });
});
