import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config/config.ts';

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  // /proc and the like answer ENOENT to mkdir although the parent exists.
  ENOENT: 'the file system there does not allow it',
};

const ADVICE = 'set DATA_DIR to a folder this user may write';

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return REASONS[code] ?? (code || String(error));
}

function problem(dataDir: string, what: string): ConfigError {
  const named = what.includes(dataDir) ? '' : ` (DATA_DIR is ${dataDir})`;
  return new ConfigError(`DATA_DIR: ${what}${named}; ${ADVICE}`);
}

/** What is at `at`: a folder, something else, or nothing (a missing path, or one through a file). */
function kindAt(dataDir: string, at: string): 'folder' | 'other' | 'none' {
  try {
    return fs.statSync(at).isDirectory() ? 'folder' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'none';
    throw problem(dataDir, `cannot look at ${at}: ${reasonOf(error)}`);
  }
}

/**
 * Makes DATA_DIR (and the folders above it) when missing, and checks this process may write in
 * it: an unusable folder stops start-up at once with one line naming DATA_DIR. Not
 * `fs.mkdirSync(dir, {recursive: true})`: where mkdir answers ENOENT although the parent exists
 * (/proc), Node's recursive mkdir loops for ever on the main thread, deaf to every signal.
 */
export function prepareDataDir(dataDir: string): void {
  const missing: string[] = [];
  for (let at = dataDir; ; at = path.dirname(at)) {
    const kind = kindAt(dataDir, at);
    if (kind === 'other') {
      throw problem(dataDir, at === dataDir ? `${at} is a file, not a folder` : `${at} is a file, so no folder can be made inside it`);
    }
    if (kind === 'folder' || path.dirname(at) === at) break;
    missing.unshift(at);
  }
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder);
    } catch (error) {
      // Made meanwhile by another process: as good as made here.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && kindAt(dataDir, folder) === 'folder') continue;
      throw problem(dataDir, `cannot make the folder ${folder}: ${reasonOf(error)}`);
    }
  }
  try {
    fs.accessSync(dataDir, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw problem(dataDir, `this user may not write in ${dataDir}`);
  }
}
