import { recordAudit } from '../../core/audit.ts';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import { rankAfter } from '../../core/rank.ts';
import { requireFormChange } from './policy.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { checkFormFields, checkKeptFields, DEFAULT_FORM_FIELDS } from './form-fields.ts';
import { presentOne } from './read.ts';
import { insertForm, lockProjectForms, projectForms, renameFormOnTickets, updateForm, type FormRow, type FormValues } from './repo.ts';
import { loadHelpdeskProject, resolveForm, type HelpdeskProject } from './resolve.ts';
import type { CreateRequestTypeBody, RequestType, UpdateRequestTypeBody } from './schemas.ts';
import { loadFormVocabulary, type FormVocabulary } from './vocabulary.ts';

const target = (project: HelpdeskProject, key: string) => `${project.key} request type ${key}`;

/** A form raises tickets of a type the project uses; a sub-task type needs a parent, so it cannot. */
function resolveTicketType(vocabulary: FormVocabulary, given: string) {
  const types = vocabulary.types.filter((t) => !t.is_subtask);
  return resolveName(types, given, { pointer: '/ticket_type', what: 'ticket type', names: (t) => [t.name] });
}

/** Keys are unique in the project, active names among its active forms (spec 4.4; ADR 0028). */
function checkUnique(
  project: HelpdeskProject,
  forms: readonly FormRow[],
  values: { key: string; name: string },
  self: FormRow | null,
): void {
  const others = forms.filter((f) => f.id !== self?.id);
  if (others.some((f) => normalizeName(f.key) === normalizeName(values.key))) {
    throw invalid('/key', `project ${project.key} already has a request type with key "${values.key}"`);
  }
  if (!self?.archived && others.some((f) => !f.archived && normalizeName(f.name) === normalizeName(values.name))) {
    throw invalid('/name', `project ${project.key} already has an active request type named "${values.name}"`);
  }
}

/** The values a change writes, for the audit log: ticket types by name, fields as stored. */
function auditValues(values: FormValues, vocabulary: FormVocabulary): Record<string, unknown> {
  const { ticket_type_id, ...rest } = values;
  return { ...rest, ticket_type: vocabulary.types.find((t) => t.id === ticket_type_id)?.name ?? null };
}

/** The fields whose values differ, as `{field, from, to}` (values compared as JSON). */
function differences(before: object, after: object): HistoryChange[] {
  const was = before as Record<string, unknown>;
  return Object.entries(after)
    .filter(([field, value]) => JSON.stringify(was[field]) !== JSON.stringify(value))
    .map(([field, value]) => ({ field, from: was[field] ?? null, to: value ?? null }));
}

/** POST /projects/{key}/request-types: a new form at the end of the portal order. */
export async function createRequestType(ctx: Context, projectKey: string, input: CreateRequestTypeBody): Promise<RequestType> {
  const project = await loadHelpdeskProject(ctx, projectKey);
  const submission = input.submission ?? 'authenticated';
  await requireFormChange(ctx.ability, project, { kind: 'create', submission }, 'create request types');
  await lockProjectForms(ctx.db, project.id);
  const [forms, vocabulary] = await Promise.all([projectForms(ctx.db, project.id), loadFormVocabulary(ctx.db, project.id)]);

  const type = resolveTicketType(vocabulary, input.ticket_type);
  const values: FormValues = {
    key: input.key,
    name: input.name.trim(),
    description: input.description ?? null,
    help_text: input.help_text ?? null,
    portal_group: input.portal_group?.trim() || null,
    hidden: input.hidden ?? false,
    submission,
    ticket_type_id: type.id,
    fields: input.fields ? checkFormFields(vocabulary, type.name, input.fields) : [...DEFAULT_FORM_FIELDS],
  };
  checkUnique(project, forms, values, null);
  const id = await insertForm(ctx.db, project.id, values, rankAfter(forms.map((f) => f.rank)));
  await recordAudit(ctx, {
    action: 'request_type.created',
    targetType: 'request_type',
    targetId: id,
    target: target(project, values.key),
    projectId: project.id,
    changes: differences({}, auditValues(values, vocabulary)),
  });
  return presentOne(ctx, project, id);
}

function storedValues(form: FormRow): FormValues {
  const { key, name, description, help_text, portal_group, hidden, submission, ticket_type_id, fields } = form;
  return { key, name, description, help_text, portal_group, hidden, submission, ticket_type_id, fields };
}

/** The form's values after a PATCH: fields sent replace the stored ones, the rest stay. */
function patchedValues(form: FormRow, input: UpdateRequestTypeBody, vocabulary: FormVocabulary): FormValues {
  const before = storedValues(form);
  const type = input.ticket_type !== undefined ? resolveTicketType(vocabulary, input.ticket_type) : null;
  const typeName = type?.name ?? form.ticket_type;
  let fields = before.fields;
  if (input.fields !== undefined) fields = checkFormFields(vocabulary, typeName, input.fields);
  else if (type && type.id !== form.ticket_type_id) checkKeptFields(vocabulary, typeName, fields);
  return {
    key: input.key ?? before.key,
    name: input.name?.trim() ?? before.name,
    description: input.description !== undefined ? input.description : before.description,
    help_text: input.help_text !== undefined ? input.help_text : before.help_text,
    portal_group: input.portal_group !== undefined ? input.portal_group?.trim() || null : before.portal_group,
    hidden: input.hidden ?? before.hidden,
    submission: input.submission ?? before.submission,
    ticket_type_id: type?.id ?? before.ticket_type_id,
    fields,
  };
}

/** PATCH /projects/{key}/request-types/{request_type}: only what is sent changes; an unchanged form is not written. */
export async function updateRequestType(
  ctx: Context,
  projectKey: string,
  given: string,
  input: UpdateRequestTypeBody,
): Promise<RequestType> {
  const project = await loadHelpdeskProject(ctx, projectKey);
  await lockProjectForms(ctx.db, project.id);
  const [forms, vocabulary] = await Promise.all([projectForms(ctx.db, project.id), loadFormVocabulary(ctx.db, project.id)]);
  const form = resolveForm(forms, given, { pointer: '/request_type', byId: true });
  const what = `change request type ${form.key}`;
  // helpdesk:forms is needed whatever the request holds; whether publishing is too depends on what it changes
  await requireFormChange(ctx.ability, project, { kind: 'update', before: form.submission, after: form.submission, changed: [] }, what);

  const after = patchedValues(form, input, vocabulary);
  const before = storedValues(form);
  const changed = differences(before, after).map((c) => c.field);
  await requireFormChange(ctx.ability, project, { kind: 'update', before: before.submission, after: after.submission, changed }, what);
  if (changed.length === 0) return presentOne(ctx, project, form.id);

  checkUnique(project, forms, after, form);
  await updateForm(ctx.db, form.id, after);
  if (after.name !== before.name) await renameFormOnTickets(ctx.db, form.id, after.name);
  await recordAudit(ctx, {
    action: 'request_type.updated',
    targetType: 'request_type',
    targetId: form.id,
    target: target(project, after.key),
    projectId: project.id,
    changes: differences(auditValues(before, vocabulary), auditValues(after, vocabulary)),
  });
  return presentOne(ctx, project, form.id);
}

/** DELETE /projects/{key}/request-types/{request_type}: retires the form (spec 3.4); tickets raised through it keep it. */
export async function retireRequestType(ctx: Context, projectKey: string, given: string): Promise<RequestType> {
  const project = await loadHelpdeskProject(ctx, projectKey);
  await lockProjectForms(ctx.db, project.id);
  const forms = await projectForms(ctx.db, project.id);
  const form = resolveForm(forms, given, { pointer: '/request_type', byId: true });
  await requireFormChange(ctx.ability, project, { kind: 'retire' }, `retire request type ${form.key}`);
  if (!form.archived) {
    await updateForm(ctx.db, form.id, { archived: true });
    await recordAudit(ctx, {
      action: 'request_type.retired',
      targetType: 'request_type',
      targetId: form.id,
      target: target(project, form.key),
      projectId: project.id,
      changes: [{ field: 'archived', from: false, to: true }],
    });
  }
  return presentOne(ctx, project, form.id);
}
