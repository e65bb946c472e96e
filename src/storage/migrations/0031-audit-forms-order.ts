import { sql, type Kysely } from 'kysely';

// A reordering of a project's request types is recorded about its forms (`request_types`, by the
// project's id), not about the project: whoever reads the entry is asked what the helpdesk asks of
// its forms, and nothing of them is shown while the helpdesk is switched off.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update audit_log set target_type = 'request_types'
    where action = 'request_types.reordered' and target_type = 'project'
  `.execute(db);
}
