import type { Context } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { resolveName } from '../../core/names.ts';
import { cachedAssignableMembers, cachedProjectLabels, findProjectByKey, listProjects, projectsByKey, projectStructure } from './repo.ts';
import type { Project, ProjectDetail } from './schemas.ts';

/** A project the member can see, by key; any other is 404 (spec 7: "not one the member can see"). */
export async function loadVisibleProject(ctx: Context, key: string) {
  const [project, visible] = await Promise.all([findProjectByKey(ctx, key), ctx.ability.visibleProjectIds()]);
  if (!project || (visible !== null && !visible.has(project.id))) throw notFound(`Project ${key.trim()}`);
  return project;
}

/**
 * A project named in a request's body or query (not its path): one the member can see, by key;
 * a key that matches none is 422 listing the keys they can see, as every name is (spec 2.1).
 */
export async function resolveVisibleProject(ctx: Context, given: string, pointer: string) {
  const [projects, visible] = await Promise.all([projectsByKey(ctx), ctx.ability.visibleProjectIds()]);
  return resolveName(
    projects.filter((p) => visible === null || visible.has(p.id)),
    given,
    { pointer, what: 'project', names: (p) => [p.key] },
  );
}

export async function visibleProjects(ctx: Context): Promise<Project[]> {
  const visible = await ctx.ability.visibleProjectIds();
  const all = await listProjects(ctx);
  return all
    .filter((p) => visible === null || visible.has(p.id))
    .map(({ key, name, kind, description }) => ({ key, name, kind, description }));
}

export async function describeProject(ctx: Context, key: string): Promise<ProjectDetail> {
  const project = await loadVisibleProject(ctx, key);
  const [structure, assignable, labels] = await Promise.all([
    projectStructure(ctx, project.id),
    cachedAssignableMembers(ctx, project.id),
    cachedProjectLabels(ctx, project.id),
  ]);
  return {
    key: project.key,
    name: project.name,
    kind: project.kind,
    description: project.description,
    // copies: the cached lists are shared by every request
    ticket_types: [...structure.ticket_types],
    priorities: [...structure.priorities],
    resolutions: [...structure.resolutions],
    components: [...structure.components],
    versions: [...structure.versions],
    labels: [...labels.listed],
    assignable_users: assignable.map((m) => ({ id: m.id, name: m.name })),
  };
}
