import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { LiveEvents } from '../../notifications/live-events.ts';
import type { Database } from '../../storage/database.ts';
import { pendingMigrations } from '../../storage/migrate.ts';

/**
 * Probes for a load balancer or an orchestrator (docs/operations.md): `/healthz` — the process is
 * up and answering; `/readyz` — it can serve: its database answers and has every migration this
 * code needs. A node that serves without hearing committed changes (live updates of open pages)
 * is ready and says so: `live_events` `off`, with a warning. No token: they say nothing about the
 * workspace, nor where its database is.
 */
export async function healthRoutes(app: FastifyInstance, options: { database: Database; liveEvents: LiveEvents }): Promise<void> {
  app.get('/healthz', async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    try {
      await sql`select 1`.execute(options.database.db);
      const pending = await pendingMigrations(options.database.db);
      if (pending.length) return reply.code(503).send({ status: 'unavailable', reason: `migrations not run yet: ${pending.join(', ')}` });
      const problem = options.liveEvents.problem;
      const events =
        problem === null ? { live_events: 'on' } : { live_events: 'off', warning: `live updates are off on this node: ${problem}` };
      return reply.send({ status: 'ready', engine: options.database.engine, ...events });
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check: the database does not answer');
      return reply.code(503).send({ status: 'unavailable', reason: 'the database does not answer' });
    }
  });
}
