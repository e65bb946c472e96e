import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/database.ts';

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
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ engine: 'postgres', url: url.href });
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
