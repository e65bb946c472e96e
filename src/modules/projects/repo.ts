import { sql, type Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

export async function findProjectByKey(db: Kysely<DB>, key: string) {
  return db
    .selectFrom('projects')
    .select(['id', 'key', 'name', 'kind', 'description', 'default_assignee_id', 'lead_id'])
    .where((eb) => eb(eb.fn('upper', ['key']), '=', key.trim().toUpperCase()))
    .executeTakeFirst();
}

export async function listProjects(db: Kysely<DB>) {
  return db.selectFrom('projects').select(['id', 'key', 'name', 'kind', 'description']).orderBy('position').orderBy('key').execute();
}

/** A project's names for GET /projects/{key}, in one round trip; archived ones left out. */
export async function projectVocabulary(db: Kysely<DB>, projectId: string) {
  const { rows } = await sql<{
    ticket_types: string[];
    priorities: string[];
    resolutions: string[];
    components: string[];
    versions: string[];
    labels: string[];
  }>`
    select
      array(select name from ticket_types where project_id = ${projectId} order by position) as ticket_types,
      array(select name from priorities where project_id = ${projectId} order by position) as priorities,
      array(select name from resolutions where project_id = ${projectId} order by position) as resolutions,
      array(select name from components where project_id = ${projectId} and not archived order by position) as components,
      array(select name from versions where project_id = ${projectId} and not archived order by position) as versions,
      array(select name from labels where project_id = ${projectId} and not archived order by name) as labels
  `.execute(db);
  return rows[0]!;
}
