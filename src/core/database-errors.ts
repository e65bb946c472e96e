import { ApiError } from './errors.ts';

/**
 * Failures of the database that a client can act on, in the spec's terms rather than a bare 500:
 * the database away (a restart, a failover, a cut connection) is 503 `unavailable` — retry in a few
 * seconds, the node serves again by itself once it is back (ADR 0017); a value the database
 * cannot store that validation let through is 422. Codes are PostgreSQL's (PGlite gives the same).
 */
const CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', '08007']);
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTCONN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|server closed the connection unexpectedly/i;
const VALUE_CODES = new Set(['22003', '22P02', '22021', '22P05', '22007', '22008', '22001', '54000']);

interface DriverError {
  code?: unknown;
  message?: unknown;
}

export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as DriverError;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || CONNECTION_ERRNOS.has(code))) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

export function fromDatabase(error: unknown): ApiError | null {
  if (isConnectionFailure(error)) {
    return new ApiError('unavailable', 'The database cannot be reached right now; nothing was changed. Try again in a few seconds', {
      'Retry-After': '5',
    });
  }
  const code = typeof error === 'object' && error !== null ? (error as DriverError).code : undefined;
  if (typeof code === 'string' && VALUE_CODES.has(code)) {
    return new ApiError('invalid', '/: a value in the request is out of the range or form the service can store; nothing was changed');
  }
  return null;
}
