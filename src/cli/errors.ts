import { ConfigError } from '../config/config.ts';
import { ApiError } from '../core/errors.ts';
import { DataDirBusyError } from '../storage/lock.ts';
import { WorkspaceFileError } from '../workspace/errors.ts';

/** A command line the CLI cannot make sense of: a missing or wrong option, an unknown command. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A refusal the user can act on (a member already deactivated, a name already taken…). */
export class CommandError extends Error {
  override name = 'CommandError';
}

const KNOWN: readonly (abstract new (...args: never[]) => Error)[] = [
  UsageError,
  CommandError,
  ConfigError,
  ApiError,
  WorkspaceFileError,
  DataDirBusyError,
];

/** The one line printed on stderr for a failure: the message for known errors, never a stack. */
export function oneLine(error: unknown): string {
  const known = KNOWN.some((type) => error instanceof type);
  const message = error instanceof Error ? error.message : String(error);
  const text = known ? message : `unexpected error: ${message || 'unknown'}`;
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** Exit status: 2 for a command line that makes no sense, 1 for every other failure. */
export function exitCodeFor(error: unknown): number {
  return error instanceof UsageError ? 2 : 1;
}
