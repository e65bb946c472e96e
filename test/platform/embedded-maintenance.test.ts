import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { scheduleMaintenance, type MaintenanceDone } from '../../src/storage/embedded-maintenance.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const embedded = inject('engine') === 'pglite';

let service: TestService;
let token = '';

beforeAll(async () => {
  service = await startTestService({ workspace: 'tickets-workspace.yaml', rateLimit: 100_000 });
  token = await service.token('lee@example.com');
});
afterAll(() => service.close());

interface TableCounters {
  changed: number;
  vacuums: number;
}

async function counters(table: string): Promise<TableCounters> {
  const { rows } = await sql<TableCounters>`
    select n_mod_since_analyze::int as changed, vacuum_count::int as vacuums
    from pg_stat_user_tables where schemaname = current_schema() and relname = ${table}`.execute(service.db);
  return rows[0]!;
}

/** The engine publishes a session's counters when a transaction ends, at most once a second. */
async function countersFlushed(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await sql`select 1`.execute(service.db);
}

async function analyzedColumns(table: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_stats where schemaname = current_schema() and tablename = ${table}`.execute(service.db);
  return rows[0]!.n;
}

describe.runIf(embedded)('the embedded database: tables vacuumed and analyzed as PostgreSQL’s autovacuum would', () => {
  it('analyzes every table never analyzed, and then finds none due', async () => {
    const first = await service.database.maintain!();
    expect(first.map((d) => d.table)).toContain('tickets');
    expect(await analyzedColumns('tickets')).toBeGreaterThan(0);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r' and c.reltuples < 0`.execute(service.db);
    expect(rows[0]!.n).toBe(0);
    expect(await service.database.maintain!()).toEqual([]);
  });

  it('analyzes a table once a tenth of its rows (and 50) changed', async () => {
    const created = await service.request('POST', '/api/v1/tickets', { token, body: { project: 'TIX', summary: 'Edited over and over' } });
    expect(created.status, created.text).toBe(201);
    for (let i = 0; i < 80; i += 1) {
      const edited = await service.request('PATCH', `/api/v1/tickets/${created.body.key}`, {
        token,
        body: { summary: `Edited ${i} times` },
      });
      expect(edited.status, edited.text).toBe(200);
    }
    await countersFlushed();
    expect((await counters('tickets')).changed).toBeGreaterThan(50);
    expect(await service.database.maintain!()).toContainEqual(expect.objectContaining({ table: 'tickets' }));
    expect((await counters('tickets')).changed).toBe(0);
    const after = await service.request('GET', `/api/v1/tickets/${created.body.key}`, { token });
    expect(after.body.summary).toBe('Edited 79 times');
  });

  it('vacuums a table whose file grew by a fifth since its last vacuum, even with its counters lost (PGlite keeps none across a restart)', async () => {
    const words = () => Array.from({ length: 40 }, () => randomBytes(3).toString('hex')).join(' ');
    for (let i = 0; i < 150; i += 1) {
      const made = await service.request('POST', '/api/v1/tickets', {
        token,
        body: { project: 'OTHER', summary: `Grown ${i}`, description: words() },
      });
      expect(made.status, made.text).toBe(201);
    }
    // The creates' counters are published first: one still pending would land after the reset
    // and make a table due for analysis in the next pass.
    await countersFlushed();
    await sql`select pg_stat_reset()`.execute(service.db);
    expect(await service.database.maintain!()).toContainEqual(expect.objectContaining({ table: 'tickets', vacuum: true }));
    expect((await counters('tickets')).vacuums).toBe(1);
    expect(await service.database.maintain!()).toEqual([]);
  });
});

describe.runIf(!embedded)('PostgreSQL: its own autovacuum maintains the tables', () => {
  it('leaves them to it', () => {
    expect(service.database.maintain).toBeNull();
  });
});

describe('the maintenance schedule: a pass each interval, never two at once, stopped before the database closes', () => {
  it('runs a pass per interval, skips a tick while one is under way, and waits for it when stopped', async () => {
    let started = 0;
    let finished = 0;
    let release: () => void = () => {};
    const maintain = async (): Promise<MaintenanceDone[]> => {
      started += 1;
      await new Promise<void>((resolve) => (release = resolve));
      finished += 1;
      return [{ table: 'tickets', vacuum: true, ms: 1 }];
    };
    const logged: object[] = [];
    const schedule = scheduleMaintenance(maintain, { info: (details) => logged.push(details), error: () => {} }, 10);
    await vi.waitFor(() => expect(started).toBe(1));
    // several ticks pass while the first pass is under way
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toBe(1);
    const stopping = schedule.stop();
    let stopped = false;
    void stopping.then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(1);
    expect(logged).toEqual([{ table: 'tickets', vacuum: true, ms: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(started).toBe(1);
  });
});
