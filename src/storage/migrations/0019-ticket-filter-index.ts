import { sql, type Kysely } from 'kysely';

// GET /tickets?project=…&status=… counts a project's tickets in some statuses, each tested
// against the member's security levels: with the level in the index the count is an index-only
// scan instead of a visit to every ticket of the project (ADR 0043).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index tickets_project_status_idx on tickets (project_id, status_id) include (security_level_id)`.execute(db);
}
