/**
 * Autovacuum's work for PGlite, which runs PostgreSQL as one backend with no background workers:
 * without it every update leaves its old row behind for good, and no table is ever analyzed, so
 * tables and indexes only grow and the planner never learns how the data looks (a PGlite
 * workspace measured: 20,000 rows updated five times, 99,895 dead rows and no statistics a minute
 * later). Tables are chosen as autovacuum chooses them, by its default thresholds, from the same
 * counters (pg_stat_user_tables); a table never analyzed (pg_class.reltuples < 0) is analyzed.
 */

/** A statement sent on the engine's one connection, queued behind the requests already waiting for it. */
export type Send = (text: string) => Promise<{ rows: unknown[] }>;

export interface TableDue {
  table: string;
  /** vacuum (and analyze), not analyze alone: dead rows, rows inserted, or the file's growth since the last vacuum are past the thresholds */
  vacuum: boolean;
}

export interface MaintenanceDone extends TableDue {
  ms: number;
}

/**
 * PostgreSQL's defaults: autovacuum_vacuum_threshold 50 and scale factor 0.2, the insert
 * threshold 1000 and scale factor 0.2, autovacuum_analyze_threshold 50 and scale factor 0.1.
 * PGlite loses these counters when it closes, so a table is also due once its file has grown by
 * the same shares (and 8 pages) past the pages its last vacuum or analyze recorded
 * (pg_class.relpages, which survives): what piled up before a restart is still found after it.
 */
const DUE = `
  select c.relname as table,
         s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
           or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
           or f.pages > 8 + 1.2 * c.relpages as vacuum,
         c.reltuples < 0
           or s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
           or f.pages > 8 + 1.1 * c.relpages as analyze
  from pg_stat_user_tables s
  join pg_class c on c.oid = s.relid
  cross join lateral (select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) f
  where s.schemaname = current_schema()
  order by c.relname`;

async function tablesDue(send: Send): Promise<TableDue[]> {
  const { rows } = await send(DUE);
  return (rows as { table: string; vacuum: boolean; analyze: boolean }[])
    .filter((row) => row.vacuum || row.analyze)
    .map((row) => ({ table: row.table, vacuum: row.vacuum }));
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * One pass: each table due, one statement at a time, so requests that arrive meanwhile wait for
 * one table's vacuum at most, never for the whole pass.
 */
export async function maintainTables(send: Send): Promise<MaintenanceDone[]> {
  const done: MaintenanceDone[] = [];
  for (const due of await tablesDue(send)) {
    const started = performance.now();
    await send(`${due.vacuum ? 'vacuum (analyze)' : 'analyze'} ${quoted(due.table)}`);
    done.push({ ...due, ms: Math.round(performance.now() - started) });
  }
  return done;
}

/** Autovacuum's own pause between passes (autovacuum_naptime). */
export const MAINTENANCE_INTERVAL_MS = 60_000;

interface MaintenanceLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * A pass every interval, the first one interval after the start, never two at once. `stop` ends
 * the schedule and waits for a pass under way, so the database is not closed beneath it.
 */
export function scheduleMaintenance(maintain: () => Promise<MaintenanceDone[]>, log: MaintenanceLog, intervalMs = MAINTENANCE_INTERVAL_MS) {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const pass = async () => {
    busy = true;
    try {
      for (const done of await maintain()) log.info(done, 'embedded database table maintained');
    } catch (error) {
      log.error({ err: error }, 'embedded database maintenance failed');
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => {
    if (!busy) running = pass();
  }, intervalMs);
  timer.unref();
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
