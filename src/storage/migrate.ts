import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { DB } from './schema.ts';

export interface MigrationReport {
  applied: string[];
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
