import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { maintainTables, type MaintenanceDone } from './embedded-maintenance.ts';
import { allowGating } from './gated-kysely.ts';
import { acquireDataDirLock } from './lock.ts';
import { pgTypes } from './pg-types.ts';
import { pgliteClientConfig } from './pglite-connection.ts';
import { preparingPool, type QueryCounter } from './prepared.ts';
import type { DB } from './schema.ts';

export type Engine = 'pglite' | 'postgres';

/** PGlite's buffer cache (`shared_buffers`, e.g. `32MB`); unset keeps the engine's 128MB. */
interface PgliteSettings {
  sharedBuffers?: string | null;
}

export type DatabaseTarget =
  | ({ engine: 'pglite'; dataDir: string } & PgliteSettings)
  | ({ engine: 'pglite'; memory: true; loadDataDir?: Blob } & PgliteSettings)
  | { engine: 'postgres'; url: string; poolSize?: number };

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /** Statements sent to the database so far, counted at the driver. */
  queries: QueryCounter;
  /** The connection pool as it stands (for /metrics). */
  poolStats(): { total: number; idle: number; waiting: number };
  /**
   * Calls `onMessage` with every NOTIFY on `channel` once its transaction commits, from any
   * process on the same database; resolves to a function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** The embedded engine, for dumping a template in tests; null on PostgreSQL. */
  pglite: PGlite | null;
  /**
   * PGlite: vacuums and analyzes the tables due, as autovacuum would (embedded-maintenance.ts).
   * Null on PostgreSQL, whose autovacuum does it.
   */
  maintain: (() => Promise<MaintenanceDone[]>) | null;
  close(): Promise<void>;
}

const extensions = {};

/** Kysely over a pool, open to gating (a change that waits for its token's check, core/execute.ts). */
function openKysely(pool: pg.Pool): Kysely<DB> {
  const dialect = new PostgresDialect({ pool });
  const db = new Kysely<DB>({ dialect });
  allowGating(db, dialect);
  return db;
}

/**
 * PGlite's options for a target. Settings go on the command line of its single-user backend
 * (`-c name=value`, after PGlite's own), never into the data folder's postgresql.conf, so an
 * operator's change or removal of the variable takes effect at the next start, alone.
 */
function pgliteOptions(target: PgliteSettings) {
  const startParams = target.sharedBuffers ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${target.sharedBuffers}`] : undefined;
  return { extensions, ...(startParams ? { startParams } : {}) };
}

async function openPglite(target: Extract<DatabaseTarget, { engine: 'pglite' }>): Promise<Database> {
  let release = () => {};
  let pglite: PGlite;
  if ('dataDir' in target) {
    release = acquireDataDirLock(target.dataDir);
    const folder = path.join(target.dataDir, 'pglite');
    try {
      const creating = !fs.existsSync(path.join(folder, 'PG_VERSION'));
      pglite = await PGlite.create(folder, pgliteOptions(target));
      if (creating) {
        // Creating the cluster (initdb) grows the WebAssembly memory to about 700 MiB, which is never
        // given back while that instance lives; a fresh instance on the new folder starts at about
        // 300 MiB (the server's RSS after a first start; ADR 0009).
        await pglite.close();
        pglite = await PGlite.create(folder, pgliteOptions(target));
      }
    } catch (error) {
      release();
      throw error;
    }
  } else {
    pglite = await PGlite.create({ ...pgliteOptions(target), loadDataDir: target.loadDataDir });
  }
  // one process, one session: its changes always announce themselves (migration 0018); scans as
  // on PostgreSQL (openPostgres)
  await pglite.exec(`set time zone 'UTC'; set atrium.events_always = 'on'; set synchronize_seqscans = off`);
  // One connection: Kysely's pool of one queues every transaction behind the previous one.
  const channels = new SessionChannels();
  const pool = new pg.Pool({ ...pgliteClientConfig(pglite, channels.notified), max: 1, types: pgTypes });
  const queries: QueryCounter = { count: 0 };
  const db = openKysely(preparingPool(pool, queries));
  return {
    db,
    engine: 'pglite',
    queries,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (channel, onMessage) => channels.listen(channel, onMessage, (text) => pool.query(text)),
    pglite,
    // through the pool, not the engine itself, so a pass waits its turn between transactions; and
    // not counted with the requests' statements
    maintain: () => maintainTables((text) => pool.query(text)),
    async close() {
      await db.destroy();
      await pglite.close();
      release();
    },
  };
}

/**
 * LISTEN in PGlite's one session, sent through the pool so that it waits its turn between
 * transactions; the NOTIFYs come back on the pool's connection (pglite-connection.ts).
 */
class SessionChannels {
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();

  readonly notified = (channel: string, payload: string): void => {
    for (const listener of this.#listeners.get(channel) ?? []) listener(payload);
  };

  async listen(channel: string, onMessage: (payload: string) => void, run: (text: string) => Promise<unknown>): Promise<() => Promise<void>> {
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      this.#listeners.set(channel, (listeners = new Set()));
      try {
        await run(`listen ${pg.escapeIdentifier(channel)}`);
      } catch (error) {
        this.#listeners.delete(channel);
        throw error;
      }
    }
    // a function of its own, so the same callback given twice is removed once per stop
    const listener = (payload: string) => onMessage(payload);
    listeners.add(listener);
    return async () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.#listeners.get(channel) !== listeners) return;
      this.#listeners.delete(channel);
      await run(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => {});
    };
  }
}

function openPostgres(target: Extract<DatabaseTarget, { engine: 'postgres' }>): Database {
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    types: pgTypes,
    // No JIT: on tables never analyzed (a new workspace, small tables autovacuum never reaches) the
    // planner's guesses put plain look-ups over jit_above_cost, and each then spent 50–100 ms
    // compiling (ADR 0008: the bearer lookup of a demo workspace, 45–175 ms; the PostgreSQL tests,
    // 47 against 80 s). Our statements are short: none gained from it (the year's hours report neither).
    // Sequential scans start at the table's first page: a search takes the first 250 matches the
    // scan meets (tickets/search.ts), and a scan synchronized with the last one started wherever
    // that one stopped, so the same search answered different tickets each time (ADR 0008).
    options: '-c TimeZone=UTC -c jit=off -c synchronize_seqscans=off',
  });
  // A connection the server ends (restart, failover, pg_terminate_backend, a cut network) emits
  // 'error': on the pool while it is idle, on the client itself while a request holds it. Without a
  // listener either would end the process. The query in flight fails (503 `unavailable` to its
  // client), and the pool drops the broken client and opens a new one for the next request.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const queries: QueryCounter = { count: 0 };
  const db = openKysely(preparingPool(pool, queries));
  return {
    db,
    engine: 'postgres',
    queries,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (channel, onMessage) => listenOnPostgres(target, channel, onMessage),
    pglite: null,
    maintain: null,
    async close() {
      await db.destroy();
    },
  };
}

/**
 * LISTEN on a connection of its own (a pooled one would lose it when returned). A cut connection
 * is reopened after a second, so a node keeps hearing events once its database is back.
 */
async function listenOnPostgres(target: Extract<DatabaseTarget, { engine: 'postgres' }>, channel: string, onMessage: (payload: string) => void) {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    // the name tells writers that a node listens, so that their changes announce themselves (migration 0018)
    const next = new pg.Client({ connectionString: target.url, application_name: 'atrium events' });
    next.on('error', () => {});
    next.on('end', () => {
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    await next.connect();
    await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    client = next;
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.engine === 'postgres' ? openPostgres(target) : openPglite(target);
}
