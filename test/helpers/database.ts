import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/storage/database.ts';
import type { DB } from '../../src/storage/schema.ts';

/**
 * A fresh database for one test file, copied from the run's migrated template: PGlite in memory,
 * or a new PostgreSQL database (dropped on close) when ATRIUM_TEST_DATABASE_URL is set.
 */
export async function openTestDatabase(): Promise<Database> {
  if (inject('engine') === 'postgres') {
    const serverUrl = inject('postgresUrl');
    const template = inject('postgresTemplate');
    const name = `${template}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const database = await openDatabase(nodeTarget(name));
    return {
      ...database,
      async close() {
        await database.close();
        const dropper = new pg.Client({ connectionString: serverUrl });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      },
    };
  }
  const dump = await fs.readFile(inject('pgliteTemplate'));
  return openDatabase({ engine: 'pglite', memory: true, loadDataDir: new Blob([dump]) });
}

/**
 * How a node of this run opens the PostgreSQL database `name`: directly, or through the run's
 * pooler in transaction mode (ATRIUM_TEST_POOLER_URL) with the server as its direct URL.
 */
export function nodeTarget(name: string): DatabaseTarget {
  const direct = new URL(inject('postgresUrl'));
  direct.pathname = `/${name}`;
  if (!inject('poolerUrl')) return { engine: 'postgres', url: direct.href };
  const pooled = new URL(inject('poolerUrl'));
  pooled.pathname = `/${name}`;
  return { engine: 'postgres', url: pooled.href, pooler: 'transaction', directUrl: direct.href };
}

/** Another node on the PostgreSQL database `db` works on: a pool of its own, as a second process would open. */
export async function openAnotherNode(db: Kysely<DB>): Promise<Database> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  return openDatabase(nodeTarget(rows[0]!.name));
}

/** Whether this run's nodes reach PostgreSQL through a pooler in transaction mode. */
export function throughPooler(): boolean {
  return inject('poolerUrl') !== '';
}

/** The PostgreSQL URL of a database this test file may create for itself, or null on PGlite. */
export function postgresServerUrl(): string | null {
  return inject('engine') === 'postgres' ? inject('postgresUrl') : null;
}

/** One statement on the PostgreSQL server (create or drop a database), on a connection of its own. */
export async function adminQuery(server: string, query: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}
