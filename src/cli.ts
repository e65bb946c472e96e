import fs from 'node:fs';
import { loadConfig } from './config/config.ts';
import { exitCodeFor, oneLine, UsageError } from './cli/errors.ts';
import { COMMAND_NAMES, helpText } from './cli/help.ts';

function version(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

const HELP_FLAGS = ['--help', '-h'];

/** `atrium …`: every command reads the same environment as the server, through loadConfig. */
async function main(argv: string[]): Promise<string | null> {
  const [first, second] = argv;
  if (first === undefined) throw new UsageError('no command given; run "atrium help" for the list');
  if (first === '--version' || first === '-v') return `atrium ${version()}`;
  if (first === 'help' || HELP_FLAGS.includes(first)) return helpText(argv.slice(1), version());
  // `atrium token --help`, `atrium token create --help`: help for the words before the flag.
  const helpAt = argv.findIndex((a) => HELP_FLAGS.includes(a));
  if (helpAt > 0) return helpText(argv.slice(0, Math.min(helpAt, 2)), version());
  const config = loadConfig();
  // Loaded only now: help and a bad environment answer without compiling the whole service.
  if (first === 'serve') {
    const { serve } = await import('./cli/serve.ts');
    await serve(argv.slice(1), config);
    return null;
  }
  const { databaseCommands } = await import('./cli/database-commands.ts');
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
  const { runDatabaseCommand } = await import('./cli/run-database-command.ts');
  return runDatabaseCommand(config, command, args, { note: (line) => process.stderr.write(`${line}\n`) });
}

try {
  const output = await main(process.argv.slice(2));
  if (output !== null && output !== '') process.stdout.write(`${output}\n`);
  process.exitCode = 0;
} catch (error) {
  process.stderr.write(`atrium: ${oneLine(error)}\n`);
  process.exitCode = exitCodeFor(error);
}
