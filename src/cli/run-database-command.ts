import type { Config } from '../config/config.ts';
import { databaseTarget } from '../main.ts';
import { openDatabase, type Database } from '../storage/database.ts';
import { DataDirBusyError } from '../storage/lock.ts';
import { migrateToLatest } from '../storage/migrate.ts';
import { prepareWorkspace } from '../workspace/bootstrap.ts';
import type { DatabaseCommand } from './command.ts';
import { sendToServer } from './control-socket.ts';

export interface CommandIo {
  /** A line for the person at the terminal (stderr), never part of a command's output. */
  note(line: string): void;
}

/**
 * Runs a database command where it can run: on PostgreSQL directly (the server may run too);
 * on PGlite directly when the data folder is free, otherwise inside the server that holds it.
 * `args` have been through command.complete().
 */
export async function runDatabaseCommand(config: Config, command: DatabaseCommand, args: string[], io: CommandIo): Promise<string> {
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
    // Whichever command opens a new database first creates the workspace (and the demo).
    const { applied } = await migrateToLatest(database.db);
    const { created } = await prepareWorkspace(database.db, { demo: config.demo });
    if (created) {
      const where = config.databaseUrl ? 'the database' : config.dataDir;
      io.note(`created a new workspace in ${where}${config.demo ? ' with the demo workspace' : ' (ATRIUM_DEMO=off: no demo)'}`);
    }
    return await command.execute(database.db, args, { opening: { applied, created } });
  } finally {
    await database.close();
  }
}
