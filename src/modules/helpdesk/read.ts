import type { Context } from '../../core/context.ts';
import { formAbilities } from './policy.ts';
import { presentForm } from './present.ts';
import { projectForms, type FormRow } from './repo.ts';
import { loadHelpdeskProject, resolveForm, type HelpdeskProject } from './resolve.ts';
import type { RequestType, RequestTypeList } from './schemas.ts';
import { loadFormVocabulary } from './vocabulary.ts';

/** Forms of a project presented with their positions; `forms` is the project's whole portal order. */
export async function presentForms(
  ctx: Context,
  project: HelpdeskProject,
  forms: readonly FormRow[],
  includeArchived: boolean,
): Promise<RequestTypeList> {
  const [vocabulary, abilities] = await Promise.all([loadFormVocabulary(ctx.db, project.id), formAbilities(ctx.ability, project.id)]);
  return {
    project: project.key,
    can_manage: abilities.canManage,
    can_publish: abilities.canPublish,
    request_types: forms
      .map((form, position) => ({ form, position }))
      .filter(({ form }) => includeArchived || !form.archived)
      .map(({ form, position }) => presentForm(form, position, vocabulary)),
  };
}

/** One form of the project's portal order, presented. */
export async function presentOne(ctx: Context, project: HelpdeskProject, formId: string): Promise<RequestType> {
  const forms = await projectForms(ctx.db, project.id);
  const position = forms.findIndex((f) => f.id === formId);
  return presentForm(forms[position]!, position, await loadFormVocabulary(ctx.db, project.id));
}

/** GET /projects/{key}/request-types: active forms in portal order; retired ones too with include_archived. */
export async function listRequestTypes(ctx: Context, projectKey: string, includeArchived: boolean): Promise<RequestTypeList> {
  const project = await loadHelpdeskProject(ctx, projectKey);
  return presentForms(ctx, project, await projectForms(ctx.db, project.id), includeArchived);
}

/** GET /projects/{key}/request-types/{request_type}: by key, name or id; a retired form too. */
export async function getRequestType(ctx: Context, projectKey: string, given: string): Promise<RequestType> {
  const project = await loadHelpdeskProject(ctx, projectKey);
  const forms = await projectForms(ctx.db, project.id);
  const form = resolveForm(forms, given, { pointer: '/request_type', byId: true });
  return presentForm(form, forms.indexOf(form), await loadFormVocabulary(ctx.db, project.id));
}
