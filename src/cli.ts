import { runAtrium } from './cli/dispatch.ts';
import { exitCodeFor, oneLine } from './cli/errors.ts';

try {
  const output = await runAtrium(process.argv.slice(2), process.env, { note: (line) => process.stderr.write(`${line}\n`) });
  if (output !== null && output !== '') process.stdout.write(`${output}\n`);
  process.exitCode = 0;
} catch (error) {
  process.stderr.write(`atrium: ${oneLine(error)}\n`);
  process.exitCode = exitCodeFor(error);
}
