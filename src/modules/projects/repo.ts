import { sql, type Kysely, type Selectable } from 'kysely';
import { normalizeKey } from '../../core/names.ts';
import { StructureKind, type StructureReader } from '../../core/structure-cache.ts';
import { membersHoldingSql } from '../../policy/ability.ts';
import type { DB, ProjectsTable } from '../../storage/schema.ts';

export type ProjectRow = Pick<
  Selectable<ProjectsTable>,
  'id' | 'key' | 'name' | 'kind' | 'description' | 'default_assignee_id' | 'lead_id'
>;

/** The names of a project GET /projects/{key} lists that belong to the workspace structure. */
export interface ProjectStructure {
  ticket_types: string[];
  priorities: string[];
  resolutions: string[];
  components: string[];
  versions: string[];
}

/** Every project, in the order lists show them (position, then key), with its names, for the structure cache. */
interface CachedProjects {
  ordered: ProjectRow[];
  /** The same projects by key, as PostgreSQL orders keys (names listed in errors). */
  byKeyOrder: ProjectRow[];
  structure: Map<string, ProjectStructure>;
}

async function loadProjects(db: Kysely<DB>): Promise<CachedProjects> {
  const { rows } = await sql<ProjectRow & ProjectStructure & { key_order: number }>`
    select p.id, p.key, p.name, p.kind, p.description, p.default_assignee_id, p.lead_id,
      row_number() over (order by p.key) as key_order,
      array(select name from ticket_types where project_id = p.id order by position) as ticket_types,
      array(select name from priorities where project_id = p.id order by position) as priorities,
      array(select name from resolutions where project_id = p.id order by position) as resolutions,
      array(select name from components where project_id = p.id and not archived order by position) as components,
      array(select name from versions where project_id = p.id and not archived order by position) as versions
    from projects p
    order by p.position, p.key
  `.execute(db);
  const ordered = rows.map(({ id, key, name, kind, description, default_assignee_id, lead_id }) => ({
    id,
    key,
    name,
    kind,
    description,
    default_assignee_id,
    lead_id,
  }));
  const keyOrder = new Map(rows.map((row) => [row.id, Number(row.key_order)]));
  return {
    ordered,
    byKeyOrder: [...ordered].sort((a, b) => keyOrder.get(a.id)! - keyOrder.get(b.id)!),
    structure: new Map(
      rows.map((row) => [
        row.id,
        {
          ticket_types: row.ticket_types,
          priorities: row.priorities,
          resolutions: row.resolutions,
          components: row.components,
          versions: row.versions,
        },
      ]),
    ),
  };
}

const projects = new StructureKind<CachedProjects>('projects');

/**
 * Every project with its structure, from the app's structure store keyed by config_version (see
 * core/structure-cache.ts). The objects are shared between requests: callers must not change them.
 */
function cachedProjects(ctx: StructureReader): Promise<CachedProjects> {
  return ctx.structure.get(ctx, projects, 'all', () => loadProjects(ctx.db));
}

/** A project by key, case-insensitive. */
export async function findProjectByKey(ctx: StructureReader, key: string): Promise<ProjectRow | undefined> {
  const wanted = normalizeKey(key);
  return (await cachedProjects(ctx)).ordered.find((p) => p.key.toUpperCase() === wanted);
}

/** Every project by position, then key. */
export async function listProjects(ctx: StructureReader): Promise<ProjectRow[]> {
  return (await cachedProjects(ctx)).ordered;
}

/** Every project ordered by key. */
export async function projectsByKey(ctx: StructureReader): Promise<ProjectRow[]> {
  return (await cachedProjects(ctx)).byKeyOrder;
}

/** A project's names for GET /projects/{key}: structure from the cache, archived ones left out. */
export async function projectStructure(ctx: StructureReader, projectId: string): Promise<ProjectStructure> {
  return (await cachedProjects(ctx)).structure.get(projectId)!;
}

/** A project's labels as the structure store keeps them. */
export interface ProjectLabels {
  /** The names it lists: not archived, by name. */
  listed: readonly string[];
  /** Every label's id by its stored name, archived ones too (a ticket may be given one again). */
  idByName: ReadonlyMap<string, string>;
}

const projectLabels = new StructureKind<ProjectLabels>('project-labels');

/**
 * A project's labels from the structure store: the workspace file writes them, and a ticket that
 * adds one (`ensureLabels`) bumps config_version in the same statement.
 */
export function cachedProjectLabels(ctx: StructureReader, projectId: string): Promise<ProjectLabels> {
  return ctx.structure.get(ctx, projectLabels, projectId, async () => {
    const { rows } = await sql<{ id: string; name: string; archived: boolean }>`
      select id, name, archived from labels where project_id = ${projectId} order by name
    `.execute(ctx.db);
    return { listed: rows.filter((r) => !r.archived).map((r) => r.name), idByName: new Map(rows.map((r) => [r.name, r.id])) };
  });
}

export interface AssignableMember {
  id: string;
  name: string;
}

const assignableMembers = new StructureKind<readonly AssignableMember[]>('assignable-members');

/**
 * The members who may be assigned a project's tickets (they hold ticket:transition there, or
 * administer the installation), by name, from the structure store: members, their names,
 * activity and administrator flag, groups and roles are written only by the workspace file and
 * the CLI, each of which bumps config_version.
 */
export function cachedAssignableMembers(ctx: StructureReader, projectId: string): Promise<readonly AssignableMember[]> {
  return ctx.structure.get(ctx, assignableMembers, projectId, async () => {
    const { rows } = await sql<{ assignable: AssignableMember[] }>`
      select coalesce((select json_agg(json_build_object('id', h.id, 'name', h.name) order by h.name, h.id)
                       from (${membersHoldingSql(projectId, 'ticket:transition')}) h), '[]') as assignable
    `.execute(ctx.db);
    return rows[0]!.assignable;
  });
}
