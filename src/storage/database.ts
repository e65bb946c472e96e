import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock } from './lock.ts';
import { pgTypes } from './pg-types.ts';
import { preparingPool, type QueryCounter } from './prepared.ts';
import type { DB } from './schema.ts';

export type Engine = 'pglite' | 'postgres';

export type DatabaseTarget =
  | { engine: 'pglite'; dataDir: string }
  | { engine: 'pglite'; memory: true; loadDataDir?: Blob }
  | { engine: 'postgres'; url: string; poolSize?: number };

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /** Statements sent to the database so far, counted at the driver. */
  queries: QueryCounter;
  /** The connection pool as it stands (for /metrics). */
  poolStats(): { total: number; idle: number; waiting: number };
  /** The embedded engine, for dumping a template in tests; null on PostgreSQL. */
  pglite: PGlite | null;
  close(): Promise<void>;
}

const extensions = {};

async function openPglite(target: Extract<DatabaseTarget, { engine: 'pglite' }>): Promise<Database> {
  let release = () => {};
  let pglite: PGlite;
  if ('dataDir' in target) {
    release = acquireDataDirLock(target.dataDir);
    try {
      pglite = await PGlite.create(path.join(target.dataDir, 'pglite'), { extensions });
    } catch (error) {
      release();
      throw error;
    }
  } else {
    pglite = await PGlite.create({ extensions, loadDataDir: target.loadDataDir });
  }
  await pglite.exec(`set time zone 'UTC'`);
  // One connection: Kysely's pool of one queues every transaction behind the previous one.
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1, types: pgTypes });
  const queries: QueryCounter = { count: 0 };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool, queries) }) });
  return {
    db,
    engine: 'pglite',
    queries,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    pglite,
    async close() {
      await db.destroy();
      await pglite.close();
      release();
    },
  };
}

function openPostgres(target: Extract<DatabaseTarget, { engine: 'postgres' }>): Database {
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    types: pgTypes,
    options: '-c TimeZone=UTC',
  });
  // A connection the server ends (restart, failover, pg_terminate_backend, a cut network) emits
  // 'error': on the pool while it is idle, on the client itself while a request holds it. Without a
  // listener either would end the process. The query in flight fails (503 `unavailable` to its
  // client), and the pool drops the broken client and opens a new one for the next request.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const queries: QueryCounter = { count: 0 };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool, queries) }) });
  return {
    db,
    engine: 'postgres',
    queries,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    pglite: null,
    async close() {
      await db.destroy();
    },
  };
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.engine === 'postgres' ? openPostgres(target) : openPglite(target);
}
