import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseTarget } from '../../src/storage/database.ts';

export interface BenchTarget {
  engine: 'pglite' | 'postgres';
  target: DatabaseTarget;
  /** Removes the temporary folder or drops the fresh database. */
  dispose(): Promise<void>;
}

export const POSTGRES_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A PGlite database in a new temporary DATA_DIR, with PGlite's shared_buffers or the size given. */
export function pgliteTarget(sharedBuffers?: string): BenchTarget {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-'));
  return {
    engine: 'pglite',
    target: { engine: 'pglite', dataDir, ...(sharedBuffers ? { sharedBuffers } : {}) },
    async dispose() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function postgresAnswers(host = '127.0.0.1', port = 5432): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A note when the server runs without autovacuum (this machine's does): the dead rows the write
 * scenarios leave (a card move's or a transition's tickets update touches every index) are then
 * read past by every later scenario, as a live server's autovacuum would not let them pile up.
 */
export async function autovacuumNote(serverUrl = POSTGRES_SERVER): Promise<string | null> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ autovacuum: string }>('show autovacuum');
    return rows[0]?.autovacuum === 'off'
      ? 'PostgreSQL: autovacuum is off on this server, so the dead rows and index entries the write scenarios leave stay for the rest of the run (the seed vacuums once, before any load).'
      : null;
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database for this run, dropped afterwards. */
export async function postgresTarget(serverUrl = POSTGRES_SERVER): Promise<BenchTarget> {
  const name = `atrium_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    engine: 'postgres',
    target: { engine: 'postgres', url: url.href },
    async dispose() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
