import type { Kysely } from 'kysely';
import type { DB } from '../storage/schema.ts';

export interface ExistingWorkspace {
  members: { id: string; display_name: string; username: string; email: string | null }[];
  groups: string[];
  roles: string[];
  workflows: { name: string; statuses: string[] }[];
  /** Per project key (upper case): what a file that leaves a list out keeps. */
  projects: Map<string, { priorities: string[]; customFieldKeys: string[] }>;
}

/** What the workspace already holds that a file may refer to without declaring it again. */
export async function loadExistingWorkspace(db: Kysely<DB>): Promise<ExistingWorkspace> {
  const [members, groups, roles, workflows, statuses, projects, priorities, fields] = await Promise.all([
    db.selectFrom('members').select(['id', 'display_name', 'username', 'email']).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('groups').select('name').orderBy('name').execute(),
    db.selectFrom('roles').select('name').orderBy('name').execute(),
    db.selectFrom('workflows').select(['id', 'name']).orderBy('name').execute(),
    db.selectFrom('statuses').select(['workflow_id', 'name']).orderBy('position').execute(),
    db.selectFrom('projects').select(['id', 'key']).execute(),
    db.selectFrom('priorities').select(['project_id', 'name']).orderBy('position').execute(),
    db.selectFrom('custom_fields').select(['project_id', 'key']).orderBy('position').execute(),
  ]);
  return {
    members,
    groups: groups.map((g) => g.name),
    roles: roles.map((r) => r.name),
    workflows: workflows.map((w) => ({
      name: w.name,
      statuses: statuses.filter((s) => s.workflow_id === w.id).map((s) => s.name),
    })),
    projects: new Map(
      projects.map((p) => [
        p.key.toUpperCase(),
        {
          priorities: priorities.filter((r) => r.project_id === p.id).map((r) => r.name),
          customFieldKeys: fields.filter((f) => f.project_id === p.id).map((f) => f.key),
        },
      ]),
    ),
  };
}
