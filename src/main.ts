import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config/config.ts';
import { databaseTarget } from './storage/config-target.ts';
import { openDatabase, type Database } from './storage/database.ts';
import { startBackground } from './notifications/background.ts';
import { prepareWorkspace } from './workspace/bootstrap.ts';

const STATEMENTS_NOTE = {
  pooler: 'through a pooler that keeps prepared statements: hot statements stay prepared',
  unnamed:
    'through a pooler that does not keep prepared statements: every statement is planned at each run ' +
    '(PgBouncer 1.21 and later keeps them with max_prepared_statements)',
} as const;

/** Extras `atrium serve` adds: the CLI's control socket, opened once the app is built, closed first. */
export interface ServiceOptions {
  controlSocket?: (service: { database: Database; log: FastifyBaseLogger }) => Promise<{ close(): Promise<void> } | null>;
}

export interface RunningService {
  app: FastifyInstance;
  database: Database;
  created: boolean;
  address: string;
  stop(): Promise<void>;
}

/** Opens the database, prepares the workspace, and listens: `atrium serve`. */
export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  const database = await openDatabase(databaseTarget(config));
  try {
    const { created } = await prepareWorkspace(database.db, { demo: config.demo });
    const app = await buildApp({ config, database });
    if (database.listenProblem) app.log.warn({ reason: database.listenProblem }, 'live updates are off on this node');
    const { statements } = database;
    if (statements !== 'named') app.log.info({ statements }, STATEMENTS_NOTE[statements]);
    let control: { close(): Promise<void> } | null = null;
    let address: string;
    try {
      control = (await options.controlSocket?.({ database, log: app.log })) ?? null;
      address = await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      await control?.close();
      await app.close();
      throw error;
    }
    const background = startBackground({ database, mail: config.mail, publicUrl: config.publicUrl, log: app.log, now: () => new Date() });
    let stopping: Promise<void> | null = null;
    return {
      app,
      database,
      created,
      address,
      stop() {
        stopping ??= (async () => {
          await control?.close();
          // finish what was accepted before closing (surfaces/draining.ts)
          await app.drain();
          await background.stop();
          await app.close();
          await database.close();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
