import { normalizeLabel, normalizeName } from '../core/names.ts';
import { applyProjectRoles, applySecurityLevels } from './apply-project-access.ts';
import { applyWorkflowEntry } from './apply-workflow-entry.ts';
import { checkProjects } from './check-projects.ts';
import type { ApplyContext, WorkspaceSectionHandler } from './context.ts';
import { filePath } from './path.ts';
import type { ProjectEntry, WorkflowRef } from './schema.ts';
import { syncProjectList } from './sync-list.ts';
import { DEFAULT_PRIORITIES } from './ticket-fields.ts';
import type { StoredRow } from './writer.ts';

async function workflowId(ctx: ApplyContext, ref: WorkflowRef, at: (string | number)[]): Promise<string> {
  if (typeof ref !== 'string') return (await applyWorkflowEntry(ctx, ref, at)).id;
  return ctx.workflows.get(normalizeName(ref))!.id;
}

/** The project row: fields the file leaves out keep their stored value. */
async function applyProjectRow(ctx: ApplyContext, project: ProjectEntry, p: number): Promise<{ id: string; created: boolean }> {
  const existing = await ctx.db.selectFrom('projects').selectAll().where('key', '=', project.key).executeTakeFirst();
  const person = (ref: string | null | undefined, field: string) =>
    ref === undefined ? (existing ? undefined : null) : ref === null ? null : ctx.people.id(ref, filePath('projects', p, field));
  const id = await ctx.writer.save(
    'projects',
    existing as StoredRow | undefined,
    {
      key: project.key,
      name: project.name,
      kind: project.kind,
      description: project.description === undefined ? (existing ? undefined : null) : project.description,
      lead_id: person(project.lead, 'lead'),
      default_assignee_id: person(project.default_assignee, 'default_assignee'),
      position: p,
    },
    { touch: true },
  );
  return { id, created: !existing };
}

async function applyProject(ctx: ApplyContext, project: ProjectEntry, p: number): Promise<void> {
  const at = (...parts: (string | number)[]) => filePath('projects', p, ...parts);
  const projectWorkflowId = await workflowId(ctx, project.workflow, ['projects', p, 'workflow']);
  const typeWorkflowIds: string[] = [];
  for (const [t, type] of project.ticket_types.entries()) {
    const ref = typeof type === 'string' ? undefined : type.workflow;
    typeWorkflowIds.push(
      ref === undefined ? projectWorkflowId : await workflowId(ctx, ref, ['projects', p, 'ticket_types', t, 'workflow']),
    );
  }

  const { id, created } = await applyProjectRow(ctx, project, p);

  await syncProjectList(
    ctx,
    id,
    { table: 'ticket_types', what: 'ticket type', path: at('ticket_types'), unlisted: 'delete' },
    project.ticket_types.map((type, t) => ({
      name: (typeof type === 'string' ? type : type.name).trim(),
      workflow_id: typeWorkflowIds[t],
      is_subtask: typeof type === 'string' ? false : (type.subtask ?? false),
    })),
  );

  const priorities = project.priorities ?? ctx.file.workspace?.priorities ?? (created ? DEFAULT_PRIORITIES : undefined);
  if (priorities) {
    await syncProjectList(
      ctx,
      id,
      { table: 'priorities', what: 'priority', path: at('priorities'), unlisted: 'delete' },
      priorities.map((name) => ({ name: name.trim() })),
    );
  }

  if (project.resolutions) {
    await syncProjectList(
      ctx,
      id,
      { table: 'resolutions', what: 'resolution', path: at('resolutions'), unlisted: 'delete' },
      project.resolutions.map((r) => ({
        name: (typeof r === 'string' ? r : r.name).trim(),
        is_default: typeof r === 'string' ? false : (r.default ?? false),
      })),
    );
  }

  if (project.components) {
    await syncProjectList(
      ctx,
      id,
      { table: 'components', what: 'component', path: at('components'), unlisted: 'archive' },
      project.components.map((c, i) =>
        typeof c === 'string'
          ? { name: c.trim(), default_assignee_id: null, archived: false }
          : {
              name: c.name.trim(),
              default_assignee_id: c.default_assignee ? ctx.people.id(c.default_assignee, at('components', i, 'default_assignee')) : null,
              archived: c.archived ?? false,
            },
      ),
    );
  }

  if (project.versions) {
    await syncProjectList(
      ctx,
      id,
      { table: 'versions', what: 'version', path: at('versions'), unlisted: 'archive' },
      project.versions.map((v) =>
        typeof v === 'string'
          ? { name: v.trim(), archived: false, released: false }
          : { name: v.name.trim(), archived: v.archived ?? false, released: v.released ?? false },
      ),
    );
  }

  if (project.labels) {
    await syncProjectList(
      ctx,
      id,
      { table: 'labels', what: 'label', path: at('labels'), unlisted: 'keep', positioned: false },
      project.labels.map((label) =>
        typeof label === 'string'
          ? { name: normalizeLabel(label), archived: false }
          : { name: normalizeLabel(label.name), archived: label.archived ?? false },
      ),
    );
  }

  await applySecurityLevels(ctx, id, project, p);

  if (project.custom_fields) {
    const typeNames = project.ticket_types.map((type) => (typeof type === 'string' ? type : type.name).trim());
    await syncProjectList(
      ctx,
      id,
      { table: 'custom_fields', what: 'custom field', path: at('custom_fields'), keyColumn: 'key', unlisted: 'delete' },
      project.custom_fields.map((field) => ({
        key: field.key,
        name: field.name.trim(),
        type: field.type,
        choices: (field.choices ?? []).map((c) => c.trim()),
        ticket_types: (field.ticket_types ?? []).map((t) => typeNames.find((n) => normalizeName(n) === normalizeName(t)) ?? t.trim()),
      })),
    );
  }

  await applyProjectRoles(ctx, id, project, p);
}

/** Projects are upserted by key and never deleted; their lists follow the rules in docs/workspace-file.md. */
async function apply(ctx: ApplyContext): Promise<void> {
  for (const [p, project] of (ctx.file.projects ?? []).entries()) await applyProject(ctx, project, p);
}

export const projectsSection: WorkspaceSectionHandler = { name: 'projects', check: checkProjects, apply };
