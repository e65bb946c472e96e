import { loadConfig } from './config/config.ts';
import { exitCodeFor, oneLine, UsageError } from './cli/errors.ts';
import { helpText } from './cli/help.ts';

/** `atrium …`: every command reads the same environment as the server, through loadConfig. */
async function main(argv: string[]): Promise<string | null> {
  const [first, second] = argv;
  if (first === undefined) throw new UsageError('no command given; run "atrium help" for the list');
  if (first === 'help' || first === '--help' || first === '-h') return helpText(second);
  if (argv.includes('--help') || argv.includes('-h')) return helpText(first);
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
    const known = ['serve', ...databaseCommands.keys()].join(', ');
    throw new UsageError(`unknown command "${argv.slice(0, 2).join(' ')}"; commands are ${known} (see "atrium help")`);
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
