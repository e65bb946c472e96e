import type { Config } from '../config/config.ts';
import type { DatabaseTarget } from './database.ts';

/** The database the configuration names: PostgreSQL (with its pooler and direct URL) or PGlite in DATA_DIR. */
export function databaseTarget(config: Config): DatabaseTarget {
  if (config.databaseUrl === null) {
    return { engine: 'pglite', dataDir: config.dataDir, sharedBuffers: config.pgliteSharedBuffers };
  }
  const { databaseUrl: url, databasePooler: pooler, databaseDirectUrl: directUrl } = config;
  return { engine: 'postgres', url, pooler, directUrl };
}
