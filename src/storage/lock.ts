import fs from 'node:fs';
import path from 'node:path';
import { prepareDataDir } from './data-dir.ts';

export class DataDirBusyError extends Error {
  readonly dataDir: string;
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(`the data folder ${dataDir} is in use by another Atrium process (pid ${pid})`);
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockFilePath(dataDir: string): string {
  return path.join(dataDir, 'atrium.lock');
}

/** The pid holding the data folder, or null when nobody (alive) does. */
export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockFilePath(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * PGlite is one process, one connection: two processes on one folder would corrupt it, and
 * PGlite does not stop the second. An exclusive lock file with our pid does.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  prepareDataDir(dataDir);
  const file = lockFilePath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dataDir);
      if (holder !== null) throw new DataDirBusyError(dataDir, holder);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock the data folder ${dataDir}`);
}
