import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';

const BIN = new URL('../../bin/atrium.js', import.meta.url).pathname;

declare module 'vitest' {
  export interface ProvidedContext {
    engine: 'pglite' | 'postgres';
    /** PGlite: a dump of a migrated database that each test file loads (≈0.6 s instead of 5 s). */
    pgliteTemplate: string;
    /** PostgreSQL: the server to use and a migrated template database to clone per test file. */
    postgresUrl: string;
    postgresTemplate: string;
    /**
     * ATRIUM_TEST_POOLER_URL: a pooler in transaction mode in front of that server (PgBouncer,
     * .ci/pooler.sh); the nodes of the tests then reach their databases through it, with
     * postgresUrl as their direct URL. Empty: directly.
     */
    poolerUrl: string;
  }
}

/**
 * Builds one migrated database per run; every test file starts from a copy of it. Makes the CLI's
 * dist/ first (bin/compiled-sources.js), so that the files that start `atrium` at once do not each
 * make it.
 */
export default async function setup(project: TestProject) {
  execFileSync(process.execPath, [BIN, '--version'], { stdio: 'ignore' });
  const postgresUrl = process.env.ATRIUM_TEST_DATABASE_URL ?? '';
  if (postgresUrl) {
    const template = `atrium_tpl_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${template}`;
    const database = await openDatabase({ engine: 'postgres', url: url.href, poolSize: 1 });
    await migrateToLatest(database.db);
    await database.close();
    project.provide('engine', 'postgres');
    project.provide('postgresUrl', postgresUrl);
    project.provide('postgresTemplate', template);
    project.provide('poolerUrl', process.env.ATRIUM_TEST_POOLER_URL ?? '');
    project.provide('pgliteTemplate', '');
    return async () => {
      const leftovers = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1 or datname = $2`, [
        `${template}_%`,
        template,
      ]);
      for (const { datname } of leftovers.rows) await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }

  const database = await openDatabase({ engine: 'pglite', memory: true });
  await migrateToLatest(database.db);
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const file = path.join(os.tmpdir(), `atrium-template-${process.pid}-${randomBytes(4).toString('hex')}.tar`);
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('engine', 'pglite');
  project.provide('pgliteTemplate', file);
  project.provide('postgresUrl', '');
  project.provide('postgresTemplate', '');
  project.provide('poolerUrl', '');
  return async () => {
    await fs.rm(file, { force: true });
  };
}
