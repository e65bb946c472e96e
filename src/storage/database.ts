import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { ConfigError, type DatabasePooler } from '../config/config.ts';
import { maintainTables, type MaintenanceDone } from './embedded-maintenance.ts';
import { allowGating } from './gated-kysely.ts';
import { acquireDataDirLock } from './lock.ts';
import { pgTypes } from './pg-types.ts';
import { pgliteClientConfig } from './pglite-connection.ts';
import { migrateThrough } from './migrate.ts';
import { keepsPreparedStatements, sharesSessions } from './pooler-probe.ts';
import { preparingPool, type QueryCounter, type StatementNaming } from './prepared.ts';
import type { DB } from './schema.ts';
import { ensureRoleDefaults, roleDefaultsSql, sessionFacts, STARTUP_OPTIONS } from './session-settings.ts';
import type { SessionFacts } from './session-settings.ts';

export type Engine = 'pglite' | 'postgres';

/** PGlite's buffer cache (`shared_buffers`, e.g. `32MB`); unset keeps the engine's 128MB. */
interface PgliteSettings {
  sharedBuffers?: string | null;
}

export type DatabaseTarget =
  | ({ engine: 'pglite'; dataDir: string } & PgliteSettings)
  | ({ engine: 'pglite'; memory: true; loadDataDir?: Blob } & PgliteSettings)
  | {
      engine: 'postgres';
      url: string;
      poolSize?: number;
      /** DATABASE_POOLER: `transaction` when `url` goes through a pooler in transaction mode. */
      pooler?: DatabasePooler;
      /** DATABASE_DIRECT_URL: PostgreSQL itself, beside the pooler, for LISTEN and migrations. */
      directUrl?: string | null;
    };

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /** Statements sent to the database so far, counted at the driver. */
  queries: QueryCounter;
  /** How marked statements are sent (prepared.ts): named, named behind a pooler that keeps them, or unnamed. */
  statements: StatementNaming;
  /** Why this node cannot LISTEN (live updates are then off), or null when it can. */
  listenProblem: string | null;
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
    statements: 'named',
    listenProblem: null,
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

  async listen(
    channel: string,
    onMessage: (payload: string) => void,
    run: (text: string) => Promise<unknown>,
  ): Promise<() => Promise<void>> {
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

/**
 * Destroys a handle and ends its pool. Kysely ends the pool only through a driver it has used,
 * and statements may have reached the pool another way (the checks at open, the migrations'
 * handle in migrate.ts): its idle connections would otherwise stay open until they time out.
 */
async function closeKysely(db: Kysely<DB> | null, pool: pg.Pool | null): Promise<void> {
  await db?.destroy();
  if (pool && !pool.ending) await pool.end();
}

/** A pool on PostgreSQL, with a listener for the 'error' a connection the server ends emits. */
function postgresPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...config, types: pgTypes });
  // A connection the server ends (restart, failover, pg_terminate_backend, a cut network) emits
  // 'error': on the pool while it is idle, on the client itself while a request holds it. Without a
  // listener either would end the process. The query in flight fails (503 `unavailable` to its
  // client), and the pool drops the broken client and opens a new one for the next request.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

type PostgresTarget = Extract<DatabaseTarget, { engine: 'postgres' }>;

const LISTEN_NEEDS_DIRECT_URL =
  'DATABASE_POOLER=transaction without DATABASE_DIRECT_URL: LISTEN needs a session of its own, which a pooler ' +
  'in transaction mode does not keep, so live updates of open pages are off on this node';

/**
 * How this node's statements are named, after checking that DATABASE_URL is what DATABASE_POOLER
 * says: a pooler in transaction mode behind a URL said to be direct would send a statement
 * prepared on one session to another (`prepared statement … does not exist`).
 */
async function statementNaming(target: PostgresTarget): Promise<StatementNaming> {
  if ((target.pooler ?? 'none') !== 'none') {
    return (await keepsPreparedStatements(target.url)) ? 'pooler' : 'unnamed';
  }
  if (await sharesSessions(target.url)) {
    throw new ConfigError(
      'DATABASE_URL: goes through a connection pooler in transaction mode (two connections were served by one ' +
        'PostgreSQL session); set DATABASE_POOLER=transaction, and DATABASE_DIRECT_URL to PostgreSQL itself for ' +
        'live updates and migrations',
    );
  }
  return 'named';
}

/** Why the sessions' settings are not the service's, and what to do about it. */
function settingsProblem(target: PostgresTarget, facts: SessionFacts): string {
  const found = facts.amiss.join(', ');
  if ((target.pooler ?? 'none') === 'none') {
    return (
      `DATABASE_URL: its sessions do not run with the settings Atrium gives them as startup options (${found}): ` +
      'something between the service and PostgreSQL drops them; behind a connection pooler, ' +
      'set DATABASE_POOLER=transaction'
    );
  }
  const statements = roleDefaultsSql(facts.user, facts.database).join('; ');
  const how = target.directUrl
    ? 'the pooler connects as another role or database than DATABASE_DIRECT_URL, or opened these sessions ' + 'before the defaults were set'
    : 'set them once, or set DATABASE_DIRECT_URL and Atrium sets them at start';
  return (
    `DATABASE_URL: the pooler's sessions do not run with Atrium's settings (${found}); behind a pooler they come ` +
    `from the role's defaults in the database (${how}): ${statements}; then have the pooler open new sessions ` +
    '(PgBouncer: RECONNECT on its console)'
  );
}

async function openPostgres(target: PostgresTarget): Promise<Database> {
  const pooled = (target.pooler ?? 'none') !== 'none';
  const directUrl = pooled ? (target.directUrl ?? null) : null;
  const directPool = directUrl ? postgresPool({ connectionString: directUrl, max: 1, options: STARTUP_OPTIONS }) : null;
  const direct = directPool ? openKysely(directPool) : null;
  let db: Kysely<DB> | null = null;
  let pooling: pg.Pool | null = null;
  const close = async () => {
    await closeKysely(db, pooling);
    await closeKysely(direct, directPool);
  };
  const queries: QueryCounter = { count: 0 };
  let pool: pg.Pool;
  let statements: StatementNaming;
  try {
    if (directPool) {
      if (await sharesSessions(directUrl!)) {
        throw new ConfigError(
          'DATABASE_DIRECT_URL: goes through a connection pooler in transaction mode too; ' + 'point it at PostgreSQL itself',
        );
      }
      // before this node opens anything through the pooler, so that the sessions it opens start with them
      await ensureRoleDefaults((text) => directPool.query(text));
    }
    statements = await statementNaming(target);
    // A pooler cannot pass startup options on to the sessions it shares (session-settings.ts).
    const options = pooled ? {} : { options: STARTUP_OPTIONS };
    pool = postgresPool({ connectionString: target.url, max: target.poolSize ?? 10, ...options });
    pooling = preparingPool(pool, queries, statements);
    db = openKysely(pooling);
    const facts = await sessionFacts((text) => pool.query(text));
    if (facts.amiss.length > 0) throw new ConfigError(settingsProblem(target, facts));
  } catch (error) {
    await close();
    // PgBouncer refuses the startup options unless told to ignore them (which then leaves them unset)
    const message = (error as Error).message ?? '';
    if (/unsupported startup parameter/i.test(message)) {
      throw new ConfigError(
        `DATABASE_URL: a connection pooler refuses Atrium's startup options (${message}); set DATABASE_POOLER=transaction`,
      );
    }
    throw error;
  }
  if (direct) migrateThrough(db, direct);
  const listenUrl = pooled ? (target.directUrl ?? null) : target.url;
  return {
    db,
    engine: 'postgres',
    queries,
    statements,
    listenProblem: listenUrl === null ? LISTEN_NEEDS_DIRECT_URL : null,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (channel, onMessage) => {
      if (listenUrl === null) return Promise.reject(new Error(LISTEN_NEEDS_DIRECT_URL));
      return listenOnPostgres(listenUrl, channel, onMessage);
    },
    pglite: null,
    maintain: null,
    close,
  };
}

/**
 * LISTEN on a connection of its own (a pooled one would lose it when returned). A cut connection
 * is reopened after a second, so a node keeps hearing events once its database is back.
 */
async function listenOnPostgres(url: string, channel: string, onMessage: (payload: string) => void) {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    // the name tells writers that a node listens, so that their changes announce themselves (migration 0018)
    const next = new pg.Client({ connectionString: url, application_name: 'atrium events' });
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
