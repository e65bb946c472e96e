import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config/config.ts';
import { databaseTarget } from '../storage/config-target.ts';
import { openDatabase, type Database } from '../storage/database.ts';
import { DataDirBusyError } from '../storage/lock.ts';
import { migrateToLatest } from '../storage/migrate.ts';
import type { DB } from '../storage/schema.ts';
import type { DatabaseCommand } from './command.ts';
import { sendToServer } from './control-socket.ts';
import { describeDatabase } from './database-place.ts';
import { CommandError } from './errors.ts';
import { checkPostgres } from './postgres-check.ts';

export interface CommandIo {
  /** A line for the person at the terminal (stderr), never part of a command's output. */
  note(line: string): void;
}

function noWorkspace(config: Config, command: DatabaseCommand): CommandError {
  return new CommandError(
    `${command.name}: no Atrium workspace at ${describeDatabase(config)}; set DATA_DIR or DATABASE_URL as the server has them (its start-up banner prints the commands with them), or create a workspace there with "atrium migrate"`,
  );
}

/** An embedded database has been made in the folder (PGlite writes PG_VERSION when it creates one). */
function pgliteDatabaseIn(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'));
}

/** The workspace exists once its settings row does (prepareWorkspace writes it last, in one transaction). */
async function hasWorkspace(db: Kysely<DB>): Promise<boolean> {
  const table = await sql<{ found: boolean }>`select to_regclass('workspace_settings') is not null as found`.execute(db);
  if (table.rows[0]?.found !== true) return false;
  return (await db.selectFrom('workspace_settings').select('id').executeTakeFirst()) !== undefined;
}

/**
 * Runs a database command where it can run: on PostgreSQL directly (the server may run too);
 * on PGlite directly when the data folder is free, otherwise inside the server that holds it.
 * `args` have been through command.complete().
 */
export async function runDatabaseCommand(config: Config, command: DatabaseCommand, args: string[], io: CommandIo): Promise<string> {
  if (config.databaseUrl !== null) await checkPostgres(config.databaseUrl);
  if (config.databaseDirectUrl !== null) await checkPostgres(config.databaseDirectUrl, 'DATABASE_DIRECT_URL');
  // Checked before opening: opening an embedded database creates its folder.
  if (config.databaseUrl === null && !command.createsWorkspace && !pgliteDatabaseIn(config.dataDir)) {
    throw noWorkspace(config, command);
  }
  let database: Database;
  try {
    database = await openDatabase(databaseTarget(config));
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      return sendToServer(config.dataDir, { command: command.name, args }, error.pid);
    }
    throw error;
  }
  try {
    if (!command.createsWorkspace) {
      if (!(await hasWorkspace(database.db))) throw noWorkspace(config, command);
      const { applied } = await migrateToLatest(database.db);
      return await command.execute(database.db, args, { opening: { applied, created: false }, pglite: database.pglite });
    }
    const { applied } = await migrateToLatest(database.db);
    // Loaded only here: the workspace engine brings every module with it.
    const { prepareWorkspace } = await import('../workspace/bootstrap.ts');
    const { created } = await prepareWorkspace(database.db, { demo: config.demo });
    if (created) {
      io.note(
        `created a new workspace at ${describeDatabase(config)}${config.demo ? ' with the demo workspace' : ' (ATRIUM_DEMO=off: no demo)'}`,
      );
    }
    return await command.execute(database.db, args, { opening: { applied, created }, pglite: database.pglite });
  } finally {
    await database.close();
  }
}
