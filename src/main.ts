import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config/config.ts';
import { openDatabase, type Database } from './storage/database.ts';
import { prepareWorkspace } from './workspace/bootstrap.ts';

export function databaseTarget(config: Config) {
  return config.databaseUrl
    ? ({ engine: 'postgres', url: config.databaseUrl } as const)
    : ({ engine: 'pglite', dataDir: config.dataDir } as const);
}

export interface RunningService {
  app: FastifyInstance;
  database: Database;
  created: boolean;
  address: string;
  stop(): Promise<void>;
}

/** Opens the database, prepares the workspace, and listens: `atrium serve`. */
export async function startService(config: Config): Promise<RunningService> {
  const database = await openDatabase(databaseTarget(config));
  try {
    const { created } = await prepareWorkspace(database.db, { demo: config.demo });
    const app = await buildApp({ config, database });
    const address = await app.listen({ port: config.port, host: config.host });
    let stopping: Promise<void> | null = null;
    return {
      app,
      database,
      created,
      address,
      stop() {
        stopping ??= (async () => {
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
