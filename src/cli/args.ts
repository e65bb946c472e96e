import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs, strict, with its errors turned into one-line usage errors that name the
 * command and the option.
 */
export function parseOptions<O extends Options>(command: string, argv: readonly string[], options: O, positionals = 0) {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: boolean }>>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals > 0 });
  } catch (error) {
    throw new UsageError(`${command}: ${describeParseError(error)}; see "atrium help ${command}"`);
  }
  if (parsed.positionals.length > positionals) {
    throw new UsageError(`${command}: unexpected argument "${parsed.positionals[positionals]}"`);
  }
  return parsed;
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return message.includes('does not take') ? `${option} takes no value` : `${option} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${/'([^']*)'/.exec(message)?.[1] ?? ''}"`;
    default:
      return message.split('\n')[0] ?? 'cannot read the command line';
  }
}

export function required(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${command}: --${name} is required`);
  return value.trim();
}

export function oneOf<T extends string>(command: string, name: string, value: string, allowed: readonly T[]): T {
  const wanted = value.trim().toLowerCase();
  const found = allowed.find((a) => a === wanted);
  if (found === undefined) {
    throw new UsageError(`${command}: ${name} must be one of ${allowed.join(', ')}, not "${value}"`);
  }
  return found;
}
