import fs from 'node:fs';
import { loadConfig, type Env } from '../config/config.ts';
import type { CommandIo } from './run-database-command.ts';
import { UsageError } from './errors.ts';
import { COMMAND_NAMES, helpText } from './help.ts';

function version(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

const HELP_FLAGS = ['--help', '-h'];

/**
 * `atrium …` with its arguments, environment and terminal given: the output for stdout (null when
 * there is none), or a thrown error for the one line on stderr. Every command reads the same
 * environment as the server, through loadConfig. The tests call it in-process; `src/cli.ts` is
 * the process around it.
 */
export async function runAtrium(argv: string[], env: Env, io: CommandIo): Promise<string | null> {
  const [first, second] = argv;
  if (first === undefined) throw new UsageError('no command given; run "atrium help" for the list');
  if (first === '--version' || first === '-v') return `atrium ${version()}`;
  if (first === 'help' || HELP_FLAGS.includes(first)) return helpText(argv.slice(1), version());
  // `atrium token --help`, `atrium token create --help`: help for the words before the flag.
  const helpAt = argv.findIndex((a) => HELP_FLAGS.includes(a));
  if (helpAt > 0) return helpText(argv.slice(0, Math.min(helpAt, 2)), version());
  const config = loadConfig(env);
  // Loaded only now: help and a bad environment answer without compiling the whole service.
  if (first === 'serve') {
    const { serve } = await import('./serve.ts');
    await serve(argv.slice(1), config);
    return null;
  }
  if (first === 'restore') {
    const { restore } = await import('./restore.ts');
    return restore(argv.slice(1), config);
  }
  const { databaseCommands } = await import('./database-commands.ts');
  const command = databaseCommands.get(first) ?? (second === undefined ? undefined : databaseCommands.get(`${first} ${second}`));
  if (!command) {
    const group = COMMAND_NAMES.filter((name) => name.split(' ')[0] === first);
    if (group.length > 0 && (second === undefined || second.startsWith('-'))) {
      const subcommands = group.map((name) => name.split(' ')[1]).join(', ');
      throw new UsageError(`${first}: give a subcommand: ${subcommands} (see "atrium help ${first}")`);
    }
    throw new UsageError(`unknown command "${argv.slice(0, 2).join(' ')}"; commands are ${COMMAND_NAMES.join(', ')} (see "atrium help")`);
  }
  // Checked (and completed: a typed password, an absolute path) before the database is touched.
  const args = await command.complete(argv.slice(command.name.split(' ').length));
  const { runDatabaseCommand } = await import('./run-database-command.ts');
  return runDatabaseCommand(config, command, args, io);
}
