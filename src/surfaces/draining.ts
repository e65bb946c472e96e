import type { FastifyInstance } from 'fastify';
import { errorBody } from '../core/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A long-lived response (an event stream): not waited for by a drain, which ends it instead. */
    stream?: boolean;
  }
}

export interface Draining {
  /**
   * Stops taking requests and waits for those already being answered: a request that arrives
   * from now on gets 503 `unavailable` with `Connection: close` (a client retries it elsewhere),
   * never a reset connection. Resolves once nothing accepted is in flight (and requests already
   * written to an open connection have been read and refused), or after `graceMs`.
   */
  drain(graceMs?: number): Promise<void>;
}

/**
 * Graceful shutdown (ADR 0017): Node closes keep-alive connections it thinks idle as soon as the
 * server closes, and a request a client has already written on one — unread while the event loop
 * was busy, as it often is on PGlite — was lost as a reset. So the service first drains: it keeps
 * listening, answers newcomers 503, finishes what it accepted, then closes.
 */
const SETTLE_MS = 1000;

export function installDraining(app: FastifyInstance, endStreams: () => void): Draining {
  let draining = false;
  let inFlight = 0;

  app.addHook('onRequest', async (request, reply) => {
    if (!draining && request.routeOptions.config.stream) return;
    if (!draining) {
      inFlight += 1;
      request.counted = true;
      return;
    }
    reply.header('Connection', 'close').header('Retry-After', '5');
    return reply.code(503).send(errorBody('unavailable', 'The service is shutting down; try again in a few seconds'));
  });
  app.addHook('onResponse', async (request) => {
    if (request.counted) inFlight -= 1;
  });

  return {
    async drain(graceMs = 10_000) {
      draining = true;
      endStreams();
      const started = Date.now();
      const deadline = started + graceMs;
      // a moment for requests already written to a socket to be read (and refused), however idle the event loop looked
      while (Date.now() < deadline && (inFlight > 0 || Date.now() - started < SETTLE_MS)) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    counted?: boolean;
  }
  interface FastifyInstance {
    /** See Draining: `main.ts` calls it before closing. */
    drain(graceMs?: number): Promise<void>;
  }
}
