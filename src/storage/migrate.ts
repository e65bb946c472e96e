import { Kysely, Migrator, PostgresAdapter, sql, type Dialect, type Migration } from 'kysely';
import { dialectOf } from './gated-kysely.ts';
import { migrations } from './migrations/index.ts';
import type { DB } from './schema.ts';

export interface MigrationReport {
  applied: string[];
}

// Any fixed number: serializes migrations between processes on PostgreSQL.
const MIGRATION_LOCK = 7_245_000;

/**
 * Kysely's own migration lock is session-level, taken before the transaction and released after
 * it: through a pooler in transaction mode the lock, the migrations and the unlock could each
 * reach another session, leaving the lock held on one the pooler keeps, and the next start waiting on it. Here
 * the lock opens the transaction and is taken inside it, so it ends with the transaction on
 * whichever connection runs them. A migration that fails rolls every one of the run back.
 */
class TransactionLevelLock extends PostgresAdapter {
  failed = false;

  // the transaction is the lock's (acquireMigrationLock), not the migrator's
  override get supportsTransactionalDdl(): boolean {
    return false;
  }

  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`begin`.execute(db);
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    // a statement that failed already aborted the transaction, and its commit rolls back
    await sql.raw(this.failed ? 'rollback' : 'commit').execute(db);
  }
}

/** The same dialect with another adapter: a handle over the same pool, never destroyed (that would end the pool). */
function withAdapter(dialect: Dialect, adapter: PostgresAdapter): Dialect {
  return {
    createAdapter: () => adapter,
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/** Where migrations run for a database handle: its direct connection when it goes through a pooler (database.ts). */
const migrationHandles = new WeakMap<Kysely<DB>, Kysely<DB>>();

/** Runs `db`'s migrations on `direct` instead (a connection to PostgreSQL itself, beside a pooler). */
export function migrateThrough(db: Kysely<DB>, direct: Kysely<DB>): void {
  migrationHandles.set(db, direct);
}

/** Migrations this code knows that the database has not run yet (empty: the schema is current). */
export async function pendingMigrations(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Runs pending migrations in one transaction, under a lock that makes two processes safe. */
export async function migrateToLatest(db: Kysely<DB>): Promise<MigrationReport> {
  const lock = new TransactionLevelLock();
  const target = migrationHandles.get(db) ?? db;
  const flagged = Object.fromEntries(
    Object.entries(migrations).map(([name, migration]): [string, Migration] => [
      name,
      {
        ...migration,
        async up(handle) {
          try {
            await migration.up(handle);
          } catch (error) {
            lock.failed = true;
            throw error;
          }
        },
      },
    ]),
  );
  const migrator = new Migrator({
    db: new Kysely<DB>({ dialect: withAdapter(dialectOf(target), lock) }),
    provider: { getMigrations: async () => flagged },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`.replace('  ', ' '));
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
