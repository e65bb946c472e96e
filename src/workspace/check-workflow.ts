import { normalizeName } from '../core/names.ts';
import { requireName, requireUnique } from './check-names.ts';
import type { CheckContext } from './context.ts';
import { fail, filePath, type PathPart } from './path.ts';
import type { WorkflowEntry } from './schema.ts';

/** Statuses and transitions of one workflow, wherever it is declared. Field names are checked per project. */
export function checkWorkflowEntry(ctx: CheckContext, entry: WorkflowEntry, at: readonly PathPart[]): void {
  requireUnique(entry.statuses, (s) => s.name, [...at, 'statuses'], 'status');
  requireUnique(entry.transitions, (t) => t.name, [...at, 'transitions'], 'transition');
  const statuses = entry.statuses.map((s) => s.name);
  entry.transitions.forEach((transition, t) => {
    const here = [...at, 'transitions', t];
    requireName(statuses, transition.to, filePath(...here, 'to'), 'status');
    if (transition.from !== 'any') {
      transition.from.forEach((from, f) => requireName(statuses, from, filePath(...here, 'from', f), 'status'));
    }
    (transition.conditions ?? []).forEach((condition, c) => {
      if ('role' in condition) requireName(ctx.roles, condition.role, filePath(...here, 'conditions', c, 'role'), 'role');
    });
  });
}

/** Makes a declared workflow nameable by projects; a name may be declared only once. */
export function registerWorkflow(ctx: CheckContext, entry: WorkflowEntry, at: readonly PathPart[]): void {
  const key = normalizeName(entry.name);
  const earlier = ctx.workflows.get(key)?.declared;
  if (earlier) fail(filePath(...at, 'name'), `workflow "${entry.name.trim()}" is declared twice (also at ${earlier.path})`);
  ctx.workflows.delete(key); // declared workflows are listed in the file's order
  ctx.workflows.set(key, {
    name: entry.name.trim(),
    statuses: entry.statuses.map((s) => s.name),
    declared: { entry, path: filePath(...at) },
  });
}
