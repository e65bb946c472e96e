import type { Context } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import { loadVisibleProject } from '../projects/index.ts';
import type { FormRow } from './repo.ts';

export type HelpdeskProject = Awaited<ReturnType<typeof loadVisibleProject>>;

/**
 * A project the member can see that has forms. Only helpdesk projects do: another kind has no
 * request types to list or change, so its request-types paths are 404 like any path that names nothing.
 */
export async function loadHelpdeskProject(ctx: Context, key: string): Promise<HelpdeskProject> {
  const project = await loadVisibleProject(ctx, key);
  if (project.kind !== 'helpdesk') {
    throw notFound(`Request types of project ${project.key} (a ${project.kind} project; only helpdesk projects have request types)`);
  }
  return project;
}

export interface FormNaming {
  pointer: string;
  /** Whether an id names a form too (paths: yes; POST /tickets: key or name only). */
  byId: boolean;
}

/**
 * A form by id, key or name (spec 4.4), case-insensitively. Ids and keys win over names, and an
 * active form's name over a retired one's, so a name never hides a key. A miss is 422 `invalid`
 * listing the keys of the forms given.
 */
export function resolveForm(forms: readonly FormRow[], given: string, naming: FormNaming): FormRow {
  return (
    findForm(forms, given, naming.byId) ??
    resolveName(forms, given, { pointer: naming.pointer, what: 'request type', names: (f) => [f.key] })
  );
}

/** The form a name means, or undefined (see resolveForm). */
export function findForm(forms: readonly FormRow[], given: string, byId: boolean): FormRow | undefined {
  const wanted = normalizeName(given);
  return (
    (byId ? forms.find((f) => f.id === wanted) : undefined) ??
    forms.find((f) => normalizeName(f.key) === wanted) ??
    forms.find((f) => !f.archived && normalizeName(f.name) === wanted) ??
    forms.find((f) => normalizeName(f.name) === wanted)
  );
}
