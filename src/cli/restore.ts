import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Config } from '../config/config.ts';
import { acquireDataDirLock, DataDirBusyError, lockHolder } from '../storage/lock.ts';
import { parseOptions } from './args.ts';
import { POSTGRES_BACKUP_ADVICE } from './backup.ts';
import { describeDatabase, reachThisDatabase } from './database-place.ts';
import { CommandError, UsageError } from './errors.ts';

async function openBackup(file: string): Promise<Blob> {
  try {
    // openAsBlob says only "Unable to open file as blob": stat first for the reason.
    if (!fs.statSync(file).isFile()) throw new CommandError(`restore: cannot read ${file}: not a file`);
    return await fs.openAsBlob(file);
  } catch (error) {
    if (error instanceof CommandError) throw error;
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new CommandError(`restore: cannot read ${file}: ${reason}`);
  }
}

/** A folder with something in it: restoring there would mix two databases or overwrite one. */
function holdsSomething(folder: string): boolean {
  try {
    return fs.readdirSync(folder).length > 0;
  } catch {
    return false;
  }
}

async function holdsWorkspace(pglite: PGlite): Promise<boolean> {
  const table = await pglite.query<{ found: boolean }>(`select to_regclass('workspace_settings') is not null as found`);
  if (table.rows[0]?.found !== true) return false;
  return (await pglite.query('select id from workspace_settings')).rows.length > 0;
}

/**
 * `atrium restore FILE`: a backup made by `atrium backup` becomes the embedded database of a
 * DATA_DIR that holds none. Never over a database (the server may hold it, or it may be the only
 * copy): move the old folder aside, or point DATA_DIR at a new one. The server migrates it when it
 * starts, as after an upgrade.
 */
export async function restore(argv: readonly string[], config: Config): Promise<string> {
  const { positionals } = parseOptions('restore', argv, {}, 1);
  if (!positionals[0]) throw new UsageError('restore: give the backup file, e.g. "atrium restore atrium-backup.tar.gz"');
  if (config.databaseUrl !== null) throw new CommandError(`restore: ${POSTGRES_BACKUP_ADVICE}`);
  const file = path.resolve(positionals[0]);
  const dataDir = config.dataDir;
  const holder = lockHolder(dataDir);
  if (holder !== null)
    throw new CommandError(
      `restore: the data folder ${dataDir} is in use by Atrium process ${holder}; stop it, and restore into a new DATA_DIR`,
    );
  const target = path.join(dataDir, 'pglite');
  if (holdsSomething(target)) {
    throw new CommandError(
      `restore: ${describeDatabase(config)} already holds a database; restore into a new DATA_DIR, or move this one aside first`,
    );
  }
  const dump = await openBackup(file);
  let release: () => void;
  try {
    release = acquireDataDirLock(dataDir);
  } catch (error) {
    if (error instanceof DataDirBusyError) throw new CommandError(`restore: ${error.message}`);
    throw error;
  }
  try {
    let pglite: PGlite | null = null;
    let restored = false;
    try {
      pglite = await PGlite.create(target, { loadDataDir: dump });
      restored = await holdsWorkspace(pglite);
    } catch {
      restored = false;
    } finally {
      await pglite?.close().catch(() => {});
    }
    if (!restored) {
      fs.rmSync(target, { recursive: true, force: true });
      throw new CommandError(`restore: ${file} is not a backup of an Atrium workspace (made by "atrium backup"); nothing restored`);
    }
  } finally {
    release();
  }
  return `restored ${file} into ${describeDatabase(config)}; start the server on it: ${reachThisDatabase(config).prefix}npx atrium serve`;
}
