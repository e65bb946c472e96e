import type { Kysely } from 'kysely';
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

async function names(db: Kysely<DB>, table: 'ticket_types' | 'priorities' | 'resolutions', projectId: string) {
  const rows = await db.selectFrom(table).select('name').where('project_id', '=', projectId).orderBy('position').execute();
  return rows.map((r) => r.name);
}

export async function projectVocabulary(db: Kysely<DB>, projectId: string) {
  const [ticketTypes, priorities, resolutions, components, versions, labels] = await Promise.all([
    names(db, 'ticket_types', projectId),
    names(db, 'priorities', projectId),
    names(db, 'resolutions', projectId),
    db.selectFrom('components').select('name').where('project_id', '=', projectId).where('archived', '=', false).orderBy('position').execute(),
    db.selectFrom('versions').select('name').where('project_id', '=', projectId).where('archived', '=', false).orderBy('position').execute(),
    db.selectFrom('labels').select('name').where('project_id', '=', projectId).where('archived', '=', false).orderBy('name').execute(),
  ]);
  return {
    ticket_types: ticketTypes,
    priorities,
    resolutions,
    components: components.map((r) => r.name),
    versions: versions.map((r) => r.name),
    labels: labels.map((r) => r.name),
  };
}
