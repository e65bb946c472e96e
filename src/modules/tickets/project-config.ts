import type { Kysely } from 'kysely';
import type { CustomFieldType, DB } from '../../storage/schema.ts';

/** The names a project's tickets use, read from the workspace structure for one request. */
export interface ProjectConfig {
  id: string;
  key: string;
  kind: string;
  defaultAssigneeId: string | null;
  types: { id: string; name: string; workflow_id: string; is_subtask: boolean }[];
  priorities: { id: string; name: string }[];
  resolutions: { id: string; name: string; is_default: boolean }[];
  components: { id: string; name: string; default_assignee_id: string | null; archived: boolean }[];
  versions: { id: string; name: string; archived: boolean }[];
  fields: { id: string; key: string; name: string; type: CustomFieldType; choices: string[]; ticket_types: string[] }[];
}

export async function loadProjectConfig(db: Kysely<DB>, project: { id: string; key: string; kind: string; default_assignee_id: string | null }): Promise<ProjectConfig> {
  const [types, priorities, resolutions, components, versions, fields] = await Promise.all([
    db.selectFrom('ticket_types').select(['id', 'name', 'workflow_id', 'is_subtask']).where('project_id', '=', project.id).orderBy('position').execute(),
    db.selectFrom('priorities').select(['id', 'name']).where('project_id', '=', project.id).orderBy('position').execute(),
    db.selectFrom('resolutions').select(['id', 'name', 'is_default']).where('project_id', '=', project.id).orderBy('position').execute(),
    db.selectFrom('components').select(['id', 'name', 'default_assignee_id', 'archived']).where('project_id', '=', project.id).orderBy('position').execute(),
    db.selectFrom('versions').select(['id', 'name', 'archived']).where('project_id', '=', project.id).orderBy('position').execute(),
    db.selectFrom('custom_fields').select(['id', 'key', 'name', 'type', 'choices', 'ticket_types']).where('project_id', '=', project.id).orderBy('position').execute(),
  ]);
  return {
    id: project.id,
    key: project.key,
    kind: project.kind,
    defaultAssigneeId: project.default_assignee_id,
    types,
    priorities,
    resolutions,
    components,
    versions,
    fields,
  };
}

export interface WorkflowStatus {
  id: string;
  name: string;
  category: 'todo' | 'in_progress' | 'done' | null;
  position: number;
}

export interface WorkflowTransition {
  id: string;
  name: string;
  from_status_ids: string[] | null;
  to_status_id: string;
  conditions: unknown[];
  validators: unknown[];
  screen: Record<string, unknown>;
}

export interface Workflow {
  statuses: WorkflowStatus[];
  transitions: WorkflowTransition[];
}

export async function loadWorkflow(db: Kysely<DB>, workflowId: string): Promise<Workflow> {
  const [statuses, transitions] = await Promise.all([
    db.selectFrom('statuses').select(['id', 'name', 'category', 'position']).where('workflow_id', '=', workflowId).orderBy('position').execute(),
    db
      .selectFrom('transitions')
      .select(['id', 'name', 'from_status_ids', 'to_status_id', 'conditions', 'validators', 'screen'])
      .where('workflow_id', '=', workflowId)
      .orderBy('position')
      .execute(),
  ]);
  return { statuses, transitions };
}
