import type { FastifyRequest } from 'fastify';
import type { Bindings, Logger } from 'pino';
import type { Log } from '../core/context.ts';
import type { Principal } from '../core/execute.ts';

/**
 * What a request's log lines say about it beyond method, path and status: who (member id), through
 * which agent (the token's or application's name), which operation, and the error code answered.
 * Never a body, a query string or a token (ADR 0015).
 */
type Logged = FastifyRequest | { log: Log };

// Fastify's request logger is a pino child: its bindings join every later line of the request,
// the "request completed" line included. Fastify's own type leaves setBindings out.
const bind = (target: Logged, bindings: Bindings) => (target.log as unknown as Logger).setBindings(bindings);

export function logWho(target: Logged, principal: Principal): void {
  bind(target, { member: principal.actor.memberId, agent: principal.agent.name });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The operation (or MCP tool) a request asked for, once known: for the log line and /metrics. */
    atriumOperation?: string;
  }
}

export function logOperation(request: FastifyRequest, operation: string): void {
  request.atriumOperation = operation;
  bind(request, { operation });
}

export const operationOf = (request: FastifyRequest): string | undefined => request.atriumOperation;

export function logErrorCode(target: Logged, code: string): void {
  bind(target, { error: code });
}

/** Parameter names the operation ignored (never their values). */
export function logIgnored(target: Logged, names: readonly string[]): void {
  bind(target, { ignored: names });
}

/** An incoming `X-Request-Id` that looks like an id is kept, so a client's and a proxy's logs join ours; anything else gets a new one. */
export function requestIdFrom(header: string | string[] | undefined, generate: () => string): string {
  return typeof header === 'string' && /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(header) ? header : generate();
}
