import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { parseOptions } from './args.ts';
import { defineCommand } from './command.ts';
import { CommandError, UsageError } from './errors.ts';

/** What `backup` and `restore` answer on PostgreSQL, where the database's own tools do it. */
export const POSTGRES_BACKUP_ADVICE =
  'on PostgreSQL (DATABASE_URL) use its own tools: pg_dump --format=custom --file=FILE "$DATABASE_URL" to back up, pg_restore --no-owner --dbname="$DATABASE_URL" FILE to restore (docs/operations.md, "Backing up and restoring")';

function parseFile(command: string, argv: readonly string[]): { file: string } {
  const { positionals } = parseOptions(command, argv, {}, 1);
  const file = positionals[0];
  if (!file) throw new UsageError(`${command}: give the backup file, e.g. "atrium ${command} atrium-backup.tar.gz"`);
  return { file };
}

/**
 * `atrium backup FILE`: the embedded database as one gzipped tarball (PGlite's dumpDataDir),
 * taken while no transaction is open, so that it holds every change committed before it and none
 * half-made. Runs inside the server when it holds the folder: no need to stop it.
 */
export const backup = defineCommand({
  name: 'backup',
  parse: (argv) => parseFile('backup', argv),
  // The server may run in another folder: it is handed an absolute path whose folder exists.
  async complete(_argv, args) {
    const file = path.resolve(args.file);
    const folder = path.dirname(file);
    const stat = await fs.stat(folder).catch(() => null);
    if (!stat?.isDirectory()) throw new CommandError(`backup: cannot write ${file}: no folder ${folder}`);
    return [file];
  },
  async run(db, args, context) {
    const pglite = context.pglite;
    if (pglite === null) throw new CommandError(`backup: ${POSTGRES_BACKUP_ADVICE}`);
    const file = path.resolve(args.file);
    // The embedded database has one connection: holding it, no transaction is open or can begin.
    const dump = await db.connection().execute(async (connection) => {
      await sql`checkpoint`.execute(connection);
      return pglite.dumpDataDir('gzip');
    });
    // Written beside the file, then renamed: a backup cut short never passes for a whole one.
    const partial = `${file}.partial-${process.pid}`;
    try {
      await fs.writeFile(partial, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
      await fs.rename(partial, file);
    } catch (error) {
      await fs.rm(partial, { force: true });
      throw new CommandError(`backup: cannot write ${file}: ${(error as Error).message}`);
    }
    return `backed up the workspace to ${file} (${dump.size} bytes)`;
  },
});
