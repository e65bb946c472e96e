import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ConfigError } from '../../src/config/config.ts';
import { openDatabase, type Database } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { PREPARE } from '../../src/storage/prepared.ts';
import type { DB } from '../../src/storage/schema.ts';
import { prepareWorkspace } from '../../src/workspace/bootstrap.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { adminQuery, postgresServerUrl, throughPooler } from '../helpers/database.ts';
import type { TestService } from '../helpers/service.ts';
import { loggedIn, workspaceWithDevTwo } from '../oauth/support.ts';

// DATABASE_POOLER=transaction: what changes when DATABASE_URL goes through a pooler in transaction
// mode. A node in that mode works on PostgreSQL itself too (a pooler only adds constraints), so
// most of this runs on the PostgreSQL pass; what needs a real pooler runs where the run has one.

const serverUrl = postgresServerUrl();
const created: string[] = [];

/** A new database, migrated, whose role has no defaults in it yet. */
async function freshDatabase(): Promise<string> {
  const name = `atrium_pooled_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl!, `create database ${name}`);
  created.push(name);
  const url = urlOf(name);
  const database = await openDatabase({ engine: 'postgres', url, poolSize: 1 });
  await migrateToLatest(database.db);
  await database.close();
  return name;
}

function urlOf(name: string, base = serverUrl!): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.href;
}

afterAll(async () => {
  for (const name of created) await adminQuery(serverUrl!, `drop database if exists ${name} with (force)`);
});

const settings = (db: Kysely<DB>) =>
  sql<{ zone: string; jit: string; synchronized: string }>`
    select current_setting('TimeZone') as zone, current_setting('jit') as jit,
           current_setting('synchronize_seqscans') as synchronized`
    .execute(db)
    .then((r) => r.rows[0]);

describe.runIf(serverUrl !== null)(
  "behind a pooler the sessions run with the service's settings, as the role's defaults in the database",
  () => {
    it('sets them over DATABASE_DIRECT_URL at open, where the pooled sessions find them', async () => {
      const name = await freshDatabase();
      const database = await openDatabase({
        engine: 'postgres',
        url: urlOf(name),
        pooler: 'transaction',
        directUrl: urlOf(name),
      });
      try {
        expect(await settings(database.db)).toEqual({ zone: 'UTC', jit: 'off', synchronized: 'off' });
        const { rows } = await sql<{ config: string[] }>`
        select s.setconfig as config from pg_db_role_setting s
        where s.setdatabase = (select oid from pg_database where datname = current_database())
          and s.setrole = (select oid from pg_roles where rolname = current_user)`.execute(database.db);
        expect(rows[0]?.config.sort()).toEqual(['TimeZone=UTC', 'jit=off', 'synchronize_seqscans=off']);
      } finally {
        await database.close();
      }
    });

    it('refuses to open without DATABASE_DIRECT_URL where they are missing, naming the statements to run', async () => {
      const name = await freshDatabase();
      const opening = openDatabase({ engine: 'postgres', url: urlOf(name), pooler: 'transaction' });
      await expect(opening).rejects.toBeInstanceOf(ConfigError);
      await expect(opening).rejects.toThrow(`alter role "postgres" in database "${name}" set TimeZone = 'UTC'`);
    });
  },
);

describe.runIf(serverUrl !== null)('behind a pooler, statements are named only where the pooler keeps them', () => {
  it('sends marked statements unnamed where names would pass through to a shared session', async () => {
    const name = await freshDatabase();
    // PostgreSQL itself passes names through, as PgBouncer before 1.21 (or without max_prepared_statements) does
    const database = await openDatabase({
      engine: 'postgres',
      url: urlOf(name),
      pooler: 'transaction',
      directUrl: urlOf(name),
    });
    try {
      expect(database.statements).toBe('unnamed');
      const prepared = await database.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ n: number }>`${sql.raw(PREPARE)} select ${7}::int as n`.execute(trx);
        expect(rows[0]!.n).toBe(7);
        return (await sql<{ count: number }>`select count(*)::int as count from pg_prepared_statements`.execute(trx)).rows[0]!.count;
      });
      expect(prepared).toBe(0);
    } finally {
      await database.close();
    }
  });
});

describe.runIf(serverUrl !== null)('a node that cannot LISTEN says so in /readyz, refuses event streams and serves the rest', () => {
  let database: Database;
  let service: TestService;

  beforeAll(async () => {
    const name = await freshDatabase();
    // the role's defaults first, through a node that has the direct URL
    await (await openDatabase({ engine: 'postgres', url: urlOf(name), pooler: 'transaction', directUrl: urlOf(name) })).close();
    database = await openDatabase({ engine: 'postgres', url: urlOf(name), pooler: 'transaction' });
    await prepareWorkspace(database.db, {
      demo: false,
      initialWorkspace: parseWorkspaceYaml(workspaceWithDevTwo(), 'workspace.yaml'),
    });
    const app = await buildApp({ config: { publicUrl: 'http://localhost:8080', logLevel: 'silent' }, database });
    await app.ready();
    service = {
      app,
      database,
      db: database.db,
      url: 'http://localhost:8080',
      publicUrl: 'http://localhost:8080',
    } as TestService;
  });
  afterAll(async () => {
    await service?.app.close();
    await database?.close();
  });

  it('answers /readyz 200 with live_events off and the reason', async () => {
    const ready = await service.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', engine: 'postgres', live_events: 'off' });
    expect(ready.json().warning).toMatch(/DATABASE_DIRECT_URL/);
  });

  it("answers a page's event stream 503, and its log-in and pages as ever", async () => {
    const browser = await loggedIn(service, 'lee');
    const events = await browser.get('/events?topic=me');
    expect(events.status).toBe(503);
    expect((await browser.get('/')).status).toBe(200);
  });
});

describe.runIf(serverUrl !== null)('migrations hold their lock for their transaction only', () => {
  it('wait for the migration lock another transaction holds, and leave no lock behind', async () => {
    const name = `atrium_locked_${randomBytes(4).toString('hex')}`;
    await adminQuery(serverUrl!, `create database ${name}`);
    created.push(name);
    const holder = new pg.Client({ connectionString: urlOf(name) });
    await holder.connect();
    const database = await openDatabase({ engine: 'postgres', url: urlOf(name) });
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(7245000)');
      let finished = false;
      const migrating = migrateToLatest(database.db).then(() => (finished = true));
      const waiting = async () => {
        const { rows } = await holder.query<{ count: number }>(
          `select count(*)::int as count from pg_locks
           where locktype = 'advisory' and objid = 7245000 and not granted
             and database = (select oid from pg_database where datname = current_database())`,
        );
        return rows[0]!.count;
      };
      for (let tries = 0; tries < 100 && (await waiting()) === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await waiting()).toBe(1);
      expect(finished).toBe(false);
      await holder.query('commit');
      await migrating;
      const { rows } = await holder.query<{ count: number }>(
        `select count(*)::int as count from pg_locks
         where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      );
      expect(rows[0]!.count).toBe(0);
    } finally {
      await holder.end();
      await database.close();
    }
    // it creates a database and migrates it from nothing, as a hook does: the hooks' time
  }, 60_000);
});

describe('locks that span statements are transaction-level: a pooler hands a session on after each transaction', () => {
  it('takes no session-level advisory lock anywhere in the service', () => {
    const root = path.resolve(import.meta.dirname, '../../src');
    const files = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const found = files.flatMap((file) => {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      return [...text.matchAll(/pg_(?:try_)?advisory_(?:lock|unlock)\w*/g)].map((match) => `${file}: ${match[0]}`);
    });
    expect(found).toEqual([]);
    const transactionLevel = files.filter((file) => /pg_(?:try_)?advisory_xact_lock/.test(fs.readFileSync(path.join(root, file), 'utf8')));
    expect(transactionLevel).toContain(path.join('storage', 'migrate.ts'));
  });
});

describe.runIf(throughPooler())('a pooler in transaction mode where the configuration says none is refused at open', () => {
  it('names DATABASE_POOLER when DATABASE_URL goes through one, and DATABASE_DIRECT_URL when that does', async () => {
    const name = await freshDatabase();
    const pooled = urlOf(name, inject('poolerUrl'));
    await expect(openDatabase({ engine: 'postgres', url: pooled })).rejects.toThrow('set DATABASE_POOLER=transaction');
    await expect(openDatabase({ engine: 'postgres', url: pooled, pooler: 'transaction', directUrl: pooled })).rejects.toThrow(
      'DATABASE_DIRECT_URL: goes through a connection pooler in transaction mode too',
    );
  });
});
