import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { bearerToken } from '../../auth/bearer.ts';
import type { Database } from '../../storage/database.ts';
import { operationOf } from '../request-log.ts';

export interface MetricsOptions {
  database: Database;
  /** METRICS_TOKEN: the bearer a scraper sends; null keeps /metrics closed (404). */
  token: string | null;
}

function doorOf(url: string): string {
  if (url.startsWith('/api/')) return 'rest';
  if (url === '/mcp' || url.startsWith('/mcp?')) return 'mcp';
  if (url.startsWith('/oauth/') || url.startsWith('/.well-known/')) return 'oauth';
  return 'pages';
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function authorized(request: FastifyRequest, token: string): boolean {
  const given = bearerToken(request.headers.authorization);
  return given !== null && timingSafeEqual(digest(given), digest(token));
}

/**
 * Prometheus metrics at `/metrics` (docs/operations.md): requests and their latency by door and
 * operation, rate-limit refusals, the database pool and round trips, and Node's own (memory, event
 * loop, garbage collection). One registry per app, so several apps in one process keep apart.
 * Labels are operation names and statuses only: never a path parameter, a member or a token.
 */
export function instrument(app: FastifyInstance, options: MetricsOptions): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'atrium_' });
  const requests = new Counter({
    name: 'atrium_requests_total',
    help: 'Requests answered, by door, operation and status',
    labelNames: ['door', 'operation', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'atrium_request_duration_seconds',
    help: 'Time to answer a request, by door and operation',
    labelNames: ['door', 'operation'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const limited = new Counter({
    name: 'atrium_rate_limited_total',
    help: 'Requests refused for their rate limit (429), by door',
    labelNames: ['door'],
    registers: [registry],
  });
  new Gauge({
    name: 'atrium_database_pool_connections',
    help: 'Database pool connections, by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = options.database.poolStats();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Counter({
    name: 'atrium_database_queries_total',
    help: 'Statements sent to the database',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(options.database.queries.count);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    const url = request.url;
    if (url === '/metrics') return;
    const door = doorOf(url);
    const operation = operationOf(request) ?? request.routeOptions.url ?? 'unmatched';
    requests.inc({ door, operation, status: String(reply.statusCode) });
    duration.observe({ door, operation }, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) limited.inc({ door });
  });

  app.get('/metrics', async (request, reply) => {
    if (options.token === null) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    if (!authorized(request, options.token)) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer realm="atrium-metrics"')
        .type('text/plain; charset=utf-8')
        .send('A valid metrics token is required');
    }
    return reply
      .header('Cache-Control', 'no-store')
      .type(registry.contentType)
      .send(await registry.metrics());
  });
}
