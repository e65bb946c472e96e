import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { DB } from './schema.ts';

export interface MigrationReport {
  applied: string[];
}

/** Migrations this code knows that the database has not run yet (empty: the schema is current). */
export async function pendingMigrations(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Runs pending migrations; Kysely's migrator takes a database lock, so two processes are safe. */
export async function migrateToLatest(db: Kysely<DB>): Promise<MigrationReport> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`.replace('  ', ' '));
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
