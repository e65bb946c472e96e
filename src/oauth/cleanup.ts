import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/schema.ts';
import { removeExpiredRecords, removeUnusedClients } from './clients.ts';

const DAY_MS = 24 * 3600 * 1000;

/** Removes unused client registrations and expired records when the service starts and once a day after (spec 5.2). */
export function scheduleClientCleanup(app: FastifyInstance, db: Kysely<DB>, now: () => Date): void {
  let timer: NodeJS.Timeout | null = null;
  const run = async () => {
    try {
      await removeExpiredRecords(db, now());
      const removed = await removeUnusedClients(db, now());
      if (removed > 0) app.log.info({ removed }, 'removed unused OAuth client registrations');
    } catch (error) {
      app.log.error({ err: error }, 'OAuth client cleanup failed');
    }
  };
  app.addHook('onReady', async () => {
    await run();
    timer = setInterval(() => void run(), DAY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
