import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnCli, type RunAs } from './cli-process.ts';

// Each step is a real `node bin/atrium.js` process. A hang is caught by spawnCli's guard (SIGKILL:
// no exit code), so the tests need no clock of their own.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

let folder = '';
// root may write anywhere: its test runs the command as "nobody", for whom the permissions count.
const as: RunAs | undefined = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-datadir-'));
  await fs.writeFile(path.join(folder, 'a-file'), 'not a folder\n');
  await fs.mkdir(path.join(folder, 'read-only'));
  await fs.mkdir(path.join(folder, 'read-only-data'));
  await fs.chmod(path.join(folder, 'read-only'), 0o555);
  await fs.chmod(path.join(folder, 'read-only-data'), 0o555);
  // Others may look inside (and "nobody" reach the folders above), not write.
  await fs.chmod(folder, 0o755);
});

afterAll(async () => {
  await fs.chmod(path.join(folder, 'read-only'), 0o755).catch(() => {});
  await fs.chmod(path.join(folder, 'read-only-data'), 0o755).catch(() => {});
  await fs.rm(folder, { recursive: true, force: true });
});

const places: [string, () => string, RunAs | undefined][] = [
  ['a folder that cannot be made (/proc/forbidden)', () => '/proc/forbidden', undefined],
  ['a file instead of a folder', () => path.join(folder, 'a-file'), undefined],
  ['a folder inside a file', () => path.join(folder, 'a-file', 'data'), undefined],
  ['a folder in a folder this user may not write', () => path.join(folder, 'read-only', 'data'), as],
  ['a folder this user may not write', () => path.join(folder, 'read-only-data'), as],
];

// Without DATABASE_URL (spawnCli never passes the suite's own), so on either engine's run.
describe('cli: an unusable DATA_DIR stops serve and migrate at once with one line naming it', () => {
  for (const command of ['serve', 'migrate']) {
    it.each(places)(`${command}: %s`, async (_what, place, user) => {
      const dataDir = place();
      const result = await spawnCli([command], { DATA_DIR: dataDir }, undefined, user);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^atrium: DATA_DIR: /);
      expect(result.stderr).toContain(dataDir);
      expect(result.stderr).not.toContain('unexpected error');
    });
  }
});
