import type { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import { readSettings } from '../core/settings.ts';
import type { DB } from '../storage/schema.ts';
import { CommandError } from './errors.ts';

/** What opening the database did before a command ran in this process; null behind the socket. */
export interface Opening {
  applied: string[];
  created: boolean;
}

export interface CommandContext {
  opening: Opening | null;
  /** The embedded engine the command runs on (for `backup`); null on PostgreSQL. */
  pglite: PGlite | null;
}

/**
 * A command that works on the workspace's database. It is written once, as a function over a
 * database handle, and runs either in the CLI process or inside the running server (through the
 * control socket), which then parses the same arguments with the same parser.
 */
export interface DatabaseCommand {
  name: string;
  /**
   * Only `migrate` (and `serve`, which is no database command) may create a workspace where there
   * is none; every other command refuses, so that one run without the server's settings cannot
   * quietly work on a new database of its own.
   */
  createsWorkspace: boolean;
  /** In the CLI process: checks the arguments and completes them (a typed password, an absolute path). */
  complete(argv: readonly string[]): Promise<string[]>;
  /** Parses the arguments and does the work; returns what goes to stdout. */
  execute(db: Kysely<DB>, argv: readonly string[], context: CommandContext): Promise<string>;
}

export interface CommandSpec<A> {
  name: string;
  createsWorkspace?: boolean;
  /**
   * Changes what the workspace holds (members, structure, the workspace file): refused while the
   * operator has made it read-only. Operator commands (settings, migrate, backup) and those that
   * only let members in or take access away (passwords, tokens, deactivation) keep working.
   */
  changesWorkspace?: boolean;
  parse(argv: readonly string[]): A;
  complete?(argv: readonly string[], args: A): Promise<string[]>;
  run(db: Kysely<DB>, args: A, context: CommandContext): Promise<string>;
}

export function defineCommand<A>(spec: CommandSpec<A>): DatabaseCommand {
  return {
    name: spec.name,
    createsWorkspace: spec.createsWorkspace === true,
    async complete(argv) {
      const args = spec.parse(argv);
      return spec.complete ? spec.complete(argv, args) : [...argv];
    },
    async execute(db, argv, context) {
      const args = spec.parse(argv);
      if (spec.changesWorkspace && (await readSettings(db)).readOnly) {
        const how = '"atrium settings set read_only off" lets changes in again';
        throw new CommandError(`${spec.name}: the workspace is read-only, so nothing was changed; ${how}`);
      }
      return spec.run(db, args, context);
    },
  };
}
