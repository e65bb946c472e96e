/**
 * What a log line says about a failure (the logger's `err`): its class, its code (PostgreSQL's
 * SQLSTATE, or Node's and Fastify's), the constraint it broke, and where it was thrown — never
 * its message or the database's `detail`, which carry the values of the row or the request (a
 * company's name, a contact's address). The operation and the request id are the line's own.
 */
export interface FailureRecord {
  type: string;
  code?: string;
  constraint?: string;
  stack?: string;
  cause?: FailureRecord;
}

// SQLSTATE (23505), or an errno or a framework's name for its error (ECONNRESET, FST_ERR_VALIDATION)
const CODE = /^(?:[0-9A-Z]{5}|[A-Z][A-Z0-9_]{1,63})$/;
// a constraint's name as migrations write them
const NAME = /^[a-z_][a-z0-9_]{0,62}$/;
// the frames of a V8 stack: the lines before them are the message
const FRAME = /^\s+at /;

interface Described {
  name?: unknown;
  code?: unknown;
  constraint?: unknown;
  stack?: unknown;
  cause?: unknown;
}

export function failureRecord(error: unknown, depth = 0): FailureRecord {
  if (typeof error !== 'object' || error === null) return { type: typeof error };
  const { code, constraint, stack, cause } = error as Described;
  const record: FailureRecord = { type: error.constructor?.name || String((error as Described).name ?? 'Error') };
  if (typeof code === 'string' && CODE.test(code)) record.code = code;
  if (typeof constraint === 'string' && NAME.test(constraint)) record.constraint = constraint;
  if (typeof stack === 'string') {
    const frames = stack.split('\n').filter((line) => FRAME.test(line));
    if (frames.length) record.stack = frames.join('\n');
  }
  if (cause !== undefined && depth < 3) record.cause = failureRecord(cause, depth + 1);
  return record;
}
