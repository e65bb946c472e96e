import { sql, type Kysely } from 'kysely';
import type { CustomFieldType, DB } from '../../storage/schema.ts';
import { StructureKind, type StructureReader } from '../../core/structure-cache.ts';

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

type ProjectLists = Pick<ProjectConfig, 'types' | 'priorities' | 'resolutions' | 'components' | 'versions' | 'fields'>;

/** Each list as a JSON array in its stored order, all in one round trip. */
export async function loadProjectConfig(
  db: Kysely<DB>,
  project: { id: string; key: string; kind: string; default_assignee_id: string | null },
): Promise<ProjectConfig> {
  const id = project.id;
  const { rows } = await sql<ProjectLists>`
    select
      coalesce((select json_agg(json_build_object('id', id, 'name', name, 'workflow_id', workflow_id, 'is_subtask', is_subtask) order by position)
                from ticket_types where project_id = ${id}), '[]') as types,
      coalesce((select json_agg(json_build_object('id', id, 'name', name) order by position)
                from priorities where project_id = ${id}), '[]') as priorities,
      coalesce((select json_agg(json_build_object('id', id, 'name', name, 'is_default', is_default) order by position)
                from resolutions where project_id = ${id}), '[]') as resolutions,
      coalesce((select json_agg(json_build_object('id', id, 'name', name, 'default_assignee_id', default_assignee_id, 'archived', archived) order by position)
                from components where project_id = ${id}), '[]') as components,
      coalesce((select json_agg(json_build_object('id', id, 'name', name, 'archived', archived) order by position)
                from versions where project_id = ${id}), '[]') as versions,
      coalesce((select json_agg(json_build_object('id', id, 'key', key, 'name', name, 'type', type, 'choices', choices, 'ticket_types', ticket_types) order by position)
                from custom_fields where project_id = ${id}), '[]') as fields
  `.execute(db);
  const lists = rows[0]!;
  return {
    id: project.id,
    key: project.key,
    kind: project.kind,
    defaultAssigneeId: project.default_assignee_id,
    types: lists.types,
    priorities: lists.priorities,
    resolutions: lists.resolutions,
    components: lists.components,
    versions: lists.versions,
    fields: lists.fields,
  };
}

const projectConfigs = new StructureKind<ProjectConfig>('project-configs');

/**
 * A project's names from the app's structure store, for requests that change tickets, not
 * structure (the workspace apply reads with loadProjectConfig). Shared between requests: frozen.
 */
export function cachedProjectConfig(
  ctx: StructureReader,
  project: { id: string; key: string; kind: string; default_assignee_id: string | null },
): Promise<ProjectConfig> {
  return ctx.structure.get(ctx, projectConfigs, project.id, () => loadProjectConfig(ctx.db, project));
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

/** A workflow's statuses and transitions in their order, in one round trip, as the caller's transaction sees them. */
export async function loadWorkflow(db: Kysely<DB>, workflowId: string): Promise<Workflow> {
  const { rows } = await sql<Workflow>`
    select
      coalesce((select json_agg(json_build_object('id', id, 'name', name, 'category', category, 'position', position) order by position)
                from statuses where workflow_id = ${workflowId}), '[]') as statuses,
      coalesce((select json_agg(json_build_object('id', id, 'name', name, 'from_status_ids', from_status_ids, 'to_status_id', to_status_id,
                                                  'conditions', conditions, 'validators', validators, 'screen', screen) order by position)
                from transitions where workflow_id = ${workflowId}), '[]') as transitions
  `.execute(db);
  return rows[0]!;
}

const workflows = new StructureKind<Workflow>('workflows');

/**
 * A workflow from the app's structure store (core/structure-cache.ts), for reads and ticket writes. Never use
 * it inside a transaction that changes structure (the workspace apply reads with loadWorkflow).
 */
export function cachedWorkflow(ctx: StructureReader, workflowId: string): Promise<Workflow> {
  return ctx.structure.get(ctx, workflows, workflowId, () => loadWorkflow(ctx.db, workflowId));
}

export interface StatusCategory {
  id: string;
  category: WorkflowStatus['category'];
}

/** Every status of the workspace with its category: a filter by category names the statuses instead of joining them. */
async function loadStatusCategories(db: Kysely<DB>): Promise<StatusCategory[]> {
  return db.selectFrom('statuses').select(['id', 'category']).orderBy('id').execute();
}

const statusCategories = new StructureKind<StatusCategory[]>('status-categories');

/** The workspace's statuses with their categories, from the app's structure store. */
export function cachedStatusCategories(ctx: StructureReader): Promise<StatusCategory[]> {
  return ctx.structure.get(ctx, statusCategories, 'all', () => loadStatusCategories(ctx.db));
}
