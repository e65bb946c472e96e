import { normalizeLabel, normalizeName } from '../core/names.ts';
import { entryName, requireName, requireUnique } from './check-names.ts';
import { checkWorkflowEntry, registerWorkflow } from './check-workflow.ts';
import type { CheckContext, KnownWorkflow } from './context.ts';
import { fail, filePath, type PathPart } from './path.ts';
import type { ProjectEntry, WorkflowRef } from './schema.ts';
import { DEFAULT_PRIORITIES, TICKET_FIELDS } from './ticket-fields.ts';

/** Where each workflow a project uses is declared or named. */
interface UsedWorkflow {
  ref: WorkflowRef;
  at: PathPart[];
}

function usedWorkflows(project: ProjectEntry, p: number): UsedWorkflow[] {
  const used: UsedWorkflow[] = [{ ref: project.workflow, at: ['projects', p, 'workflow'] }];
  project.ticket_types.forEach((type, t) => {
    if (typeof type !== 'string' && type.workflow !== undefined) {
      used.push({ ref: type.workflow, at: ['projects', p, 'ticket_types', t, 'workflow'] });
    }
  });
  return used;
}

function knownWorkflow(ctx: CheckContext, used: UsedWorkflow): KnownWorkflow {
  const name = typeof used.ref === 'string' ? used.ref : used.ref.name;
  const found = ctx.workflows.get(normalizeName(name));
  if (!found) {
    const known = [...ctx.workflows.values()];
    const names = [...known.filter((w) => w.declared), ...known.filter((w) => !w.declared)].map((w) => w.name);
    requireName(names, name, filePath(...used.at), 'workflow');
  }
  return found!;
}

/** The priorities the project will have: its own, the workspace's, the stored ones, or the defaults. */
function effectivePriorities(ctx: CheckContext, project: ProjectEntry): string[] {
  return (
    project.priorities ??
    ctx.file.workspace?.priorities ??
    ctx.existing.projects.get(project.key.toUpperCase())?.priorities ?? [...DEFAULT_PRIORITIES]
  );
}

function customFieldKeys(ctx: CheckContext, project: ProjectEntry): string[] {
  if (project.custom_fields) return project.custom_fields.map((f) => f.key);
  return ctx.existing.projects.get(project.key.toUpperCase())?.customFieldKeys ?? [];
}

/** Screens and validators of every workflow the project uses name fields the project has. */
function checkWorkflowFields(ctx: CheckContext, project: ProjectEntry, workflow: KnownWorkflow): void {
  if (!workflow.declared) return;
  const keys = customFieldKeys(ctx, project);
  const where = ` in project ${project.key}`;
  workflow.declared.entry.transitions.forEach((transition, t) => {
    const at = `${workflow.declared!.path}.transitions[${t}]`;
    (transition.screen?.fields ?? []).forEach((field, f) => requireName(keys, field, `${at}.screen.fields[${f}]`, 'custom field', where));
    (transition.validators ?? []).forEach((validator, v) =>
      validator.require_fields.forEach((field, f) =>
        requireName([...keys, ...TICKET_FIELDS], field, `${at}.validators[${v}].require_fields[${f}]`, 'field', where),
      ),
    );
  });
}

function checkProject(ctx: CheckContext, project: ProjectEntry, p: number): void {
  const at = (...parts: PathPart[]) => filePath('projects', p, ...parts);
  const person = (ref: string | null | undefined, ...parts: PathPart[]) => {
    if (ref) ctx.people.find(ref, at(...parts));
  };
  person(project.lead, 'lead');
  person(project.default_assignee, 'default_assignee');

  for (const used of usedWorkflows(project, p)) checkWorkflowFields(ctx, project, knownWorkflow(ctx, used));

  requireUnique(project.ticket_types, entryName, ['projects', p, 'ticket_types'], 'ticket type');
  const ticketTypes = project.ticket_types.map(entryName);

  if (project.priorities) requireUnique(project.priorities, (n) => n, ['projects', p, 'priorities'], 'priority');
  const defaultPriority = ctx.file.workspace?.default_priority;
  if (defaultPriority !== undefined) {
    const priorities = effectivePriorities(ctx, project);
    if (!priorities.some((n) => normalizeName(n) === normalizeName(defaultPriority))) {
      fail(
        at('priorities'),
        `the workspace's default priority "${defaultPriority}" is not among the project's priorities ${priorities.map((n) => `"${n}"`).join(', ')}`,
      );
    }
  }

  const resolutions = project.resolutions ?? [];
  requireUnique(resolutions, entryName, ['projects', p, 'resolutions'], 'resolution');
  const defaults = resolutions.map((r, i) => (typeof r !== 'string' && r.default ? i : -1)).filter((i) => i >= 0);
  if (defaults.length > 1) {
    fail(at('resolutions', defaults[1]!, 'default'), `only one resolution may be the default (also ${at('resolutions', defaults[0]!)})`);
  }

  const components = project.components ?? [];
  requireUnique(components, entryName, ['projects', p, 'components'], 'component');
  components.forEach((c, i) => person(typeof c === 'string' ? null : c.default_assignee, 'components', i, 'default_assignee'));

  requireUnique(project.versions ?? [], entryName, ['projects', p, 'versions'], 'version');
  requireUnique(project.labels ?? [], entryName, ['projects', p, 'labels'], 'label', normalizeLabel);

  const levels = project.security_levels ?? [];
  requireUnique(levels, (l) => l.name, ['projects', p, 'security_levels'], 'security level');
  levels.forEach((level, l) => {
    (level.members ?? []).forEach((ref, m) => person(ref, 'security_levels', l, 'members', m));
    (level.groups ?? []).forEach((name, g) => requireName(ctx.groups, name, at('security_levels', l, 'groups', g), 'group'));
    (level.roles ?? []).forEach((name, r) => requireName(ctx.roles, name, at('security_levels', l, 'roles', r), 'role'));
  });

  const fields = project.custom_fields ?? [];
  requireUnique(fields, (f) => f.key, ['projects', p, 'custom_fields'], 'custom field');
  fields.forEach((field, f) => {
    const hasChoices = field.type === 'select' || field.type === 'multi_select';
    if (hasChoices && !field.choices?.length) fail(at('custom_fields', f, 'choices'), `a ${field.type} field needs choices`);
    if (!hasChoices && field.choices !== undefined)
      fail(at('custom_fields', f, 'choices'), `only select and multi_select fields have choices`);
    if (field.choices) requireUnique(field.choices, (c) => c, ['projects', p, 'custom_fields', f, 'choices'], 'choice');
    (field.ticket_types ?? []).forEach((type, t) =>
      requireName(ticketTypes, type, at('custom_fields', f, 'ticket_types', t), 'ticket type'),
    );
  });

  (project.roles ?? []).forEach((grant, r) => {
    requireName(ctx.roles, grant.role, at('roles', r, 'role'), 'role');
    (grant.members ?? []).forEach((ref, m) => person(ref, 'roles', r, 'members', m));
    (grant.groups ?? []).forEach((name, g) => requireName(ctx.groups, name, at('roles', r, 'groups', g), 'group'));
  });
}

export function checkProjects(ctx: CheckContext): void {
  const projects = ctx.file.projects ?? [];
  requireUnique(projects, (p) => p.key, ['projects'], 'project key');
  // Workflows declared inside projects first, so that any project may name any of them.
  projects.forEach((project, p) => {
    for (const used of usedWorkflows(project, p)) {
      if (typeof used.ref === 'string') continue;
      checkWorkflowEntry(ctx, used.ref, used.at);
      registerWorkflow(ctx, used.ref, used.at);
    }
  });
  projects.forEach((project, p) => checkProject(ctx, project, p));
}
