import type { Context } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { membersHolding } from '../../policy/ability.ts';
import { findProjectByKey, listProjects, projectVocabulary } from './repo.ts';
import type { Project, ProjectDetail } from './schemas.ts';

/** A project the member can see, by key; any other is 404 (spec 7: "not one the member can see"). */
export async function loadVisibleProject(ctx: Context, key: string) {
  const project = await findProjectByKey(ctx.db, key);
  if (!project || !(await ctx.ability.canSeeProject(project.id))) throw notFound(`Project ${key.trim()}`);
  return project;
}

export async function visibleProjects(ctx: Context): Promise<Project[]> {
  const visible = await ctx.ability.visibleProjectIds();
  const all = await listProjects(ctx.db);
  return all
    .filter((p) => visible === null || visible.has(p.id))
    .map(({ key, name, kind, description }) => ({ key, name, kind, description }));
}

export async function describeProject(ctx: Context, key: string): Promise<ProjectDetail> {
  const project = await loadVisibleProject(ctx, key);
  const [vocabulary, assignable] = await Promise.all([
    projectVocabulary(ctx.db, project.id),
    membersHolding(ctx.db, project.id, 'ticket:transition'),
  ]);
  return {
    key: project.key,
    name: project.name,
    kind: project.kind,
    description: project.description,
    ...vocabulary,
    assignable_users: assignable.map((m) => ({ id: m.id, name: m.name })),
  };
}
