import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeProject } from '../../../modules/projects/index.ts';
import type { RequestType } from '../../../modules/helpdesk/index.ts';
import type { ApiError } from '../../../core/errors.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../actions.ts';
import { button, field, form, linkButton } from '../../components/index.ts';
import { EMPTY_FORM, formInput, refusedForm, type FormState, type FormValues } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { requestTypeHref, requestTypesHref } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { requireSession } from '../../require-session.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { readRequestTypes } from './request-types.ts';

const FIELDS = ['name', 'key', 'ticket_type', 'description', 'help_text', 'portal_group', 'hidden', 'submission'];
/** Fields a member empties to clear them (they are nullable in the operation). */
const CLEARABLE = ['description', 'help_text', 'portal_group'];

/** A form's values as the page shows them to be changed. */
function valuesOf(r: RequestType): FormValues {
  return {
    name: r.name,
    key: r.key,
    ticket_type: r.ticket_type ?? '',
    description: r.description ?? '',
    help_text: r.help_text ?? '',
    portal_group: r.portal_group ?? '',
    hidden: r.hidden ? 'on' : 'off',
    submission: r.submission,
  };
}

interface Editing {
  project: string;
  /** The form being changed; absent when creating one. */
  current?: RequestType;
  canPublish: boolean;
}

async function requestTypeForm(
  deps: PagesDeps,
  request: FastifyRequest,
  session: Session,
  editing: Editing,
  state: FormState,
): Promise<Html> {
  const ctx = await readContext(deps, session, request.id, request.log);
  const project = await describeProject(ctx, editing.project).catch(() => null);
  const types = project?.ticket_types ?? [];
  const action = editing.current
    ? `${requestTypeHref(editing.project, editing.current.key)}/edit`
    : `${requestTypesHref(editing.project)}/new`;
  const submissionHint = editing.canPublish
    ? 'Anyone with no account can submit an open form, from the portal.'
    : 'Opening a form to anyone, or changing one that is open, needs the helpdesk publish permission.';
  const content = html`${field({ name: 'name', label: 'Name', hint: 'What the portal calls the form; unique among the active forms.', state })}
${field({ name: 'key', label: 'Key', hint: 'Letters, digits, dashes and underscores; its link in the portal.', state })}
${field({ name: 'ticket_type', label: 'Ticket type', type: 'select', state, choices: [{ value: '', label: 'Choose a type' }, ...types.map((t) => ({ value: t, label: t }))] })}
${field({ name: 'description', label: 'Description', hint: 'Shown with the form in the portal list.', type: 'textarea', optional: true, state })}
${field({ name: 'help_text', label: 'Help text', hint: 'Shown above the form.', type: 'textarea', optional: true, state })}
${field({ name: 'portal_group', label: 'Portal group', hint: 'Forms of one group are listed together.', optional: true, state })}
${field({
  name: 'submission',
  label: 'Who may submit',
  type: 'select',
  hint: submissionHint,
  state,
  value: 'authenticated',
  choices: [
    { value: 'authenticated', label: 'People signed in' },
    { value: 'open', label: 'Anyone, with no account' },
  ],
})}
${field({ name: 'hidden', label: 'Hidden from the portal list (still reachable by its link)', type: 'checkbox', state })}
<div class="form-actions">${button(editing.current ? 'Save changes' : 'Create')} ${linkButton('Cancel', requestTypesHref(editing.project))}</div>`;
  return form(session, action, content, { id: 'request-type-form', state, plain: true });
}

async function showForm(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PagesDeps,
  session: Session,
  editing: Editing,
  state: FormState,
  status = 200,
): Promise<FastifyReply> {
  const title = editing.current ? `Change ${editing.current.name}` : 'Create a request type';
  const body = html`<div class="card"><h1>${title}</h1>${await requestTypeForm(deps, request, session, editing, state)}</div>`;
  return sendMemberPage(
    request,
    reply,
    deps,
    session,
    {
      title: `${title} · ${editing.project}`,
      body,
      section: 'home',
      crumbs: [
        { label: editing.project, href: `/projects/${encodeURIComponent(editing.project)}` },
        { label: 'Request types', href: requestTypesHref(editing.project) },
        { label: editing.current ? editing.current.name : 'New' },
      ],
    },
    status,
  );
}

/** What the form asks of the operation: its fields read by the schema, and the checkbox said either way. */
function bodyOf(deps: PagesDeps, operation: string, values: FormValues, clear: readonly string[]): Record<string, unknown> {
  const body = formInput(deps.registry.byName.get(operation)!.body!, values, clear);
  body.hidden = values.hidden === 'on';
  return body;
}

/**
 * Who may change a project's forms, and the one being changed: read through list_request_types
 * (retired forms included), so the page says what the API would.
 */
async function editingOf(
  deps: PagesDeps,
  request: FastifyRequest,
  session: Session,
  project: string,
  formKey?: string,
): Promise<{ ok: true; editing: Editing } | { ok: false; status: number; message: string }> {
  const listed = await readRequestTypes(deps, request, session, project);
  if (!listed.ok) return { ok: false, status: listed.error.status === 422 ? 404 : listed.error.status, message: listed.error.message };
  const list = listed.value;
  if (!list.can_manage) {
    return { ok: false, status: 403, message: `Changing the request types of ${list.project} needs the helpdesk forms permission there.` };
  }
  if (formKey === undefined) return { ok: true, editing: { project: list.project, canPublish: list.can_publish } };
  const current = list.request_types.find((r) => r.key.toLowerCase() === formKey.toLowerCase());
  if (!current) return { ok: false, status: 404, message: `${list.project} has no active request type ${formKey}.` };
  return { ok: true, editing: { project: list.project, current, canPublish: list.can_publish } };
}

/** A refused create or change: the form again, with what was typed and the reason at its field. */
async function refused(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PagesDeps,
  post: PagePost,
  error: ApiError,
  project: string,
  formKey?: string,
): Promise<FastifyReply> {
  const found = await editingOf(deps, request, post.session, project, formKey);
  if (!found.ok) return answerRefused(reply, deps, post, error);
  const state = refusedForm(error, post.values, FIELDS);
  return answerRefused(reply, deps, post, error, {
    page: (status) => showForm(request, reply, deps, post.session, found.editing, state, status),
  });
}

/** /projects/:key/request-types/new and …/:form/edit: create and change a portal form (create_request_type, update_request_type). */
export function requestTypeFormRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/projects/:key/request-types/new', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const found = await editingOf(deps, request, session, (request.params as { key: string }).key);
    if (!found.ok) return memberErrorPage(reply, deps, session, found.status, found.message);
    return showForm(request, reply, deps, session, found.editing, EMPTY_FORM);
  });

  app.post('/projects/:key/request-types/new', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key } = request.params as { key: string };
    const outcome = await runAsMember<RequestType>(deps, post, 'create_request_type', {
      params: { project: key },
      body: bodyOf(deps, 'create_request_type', post.values, []),
    });
    if (!outcome.ok) return refused(request, reply, deps, post, outcome.error, key);
    return answerDone(reply, deps, post, {
      to: requestTypesHref(key),
      flash: { kind: 'success', text: `Created the request type ${outcome.value.name}.` },
    });
  });

  app.get('/projects/:key/request-types/:form/edit', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key, form: formKey } = request.params as { key: string; form: string };
    const found = await editingOf(deps, request, session, key, formKey);
    if (!found.ok) return memberErrorPage(reply, deps, session, found.status, found.message);
    return showForm(request, reply, deps, session, found.editing, { ...EMPTY_FORM, values: valuesOf(found.editing.current!) });
  });

  app.post('/projects/:key/request-types/:form/edit', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key, form: formKey } = request.params as { key: string; form: string };
    const outcome = await runAsMember<RequestType>(deps, post, 'update_request_type', {
      params: { project: key, request_type: formKey },
      body: bodyOf(deps, 'update_request_type', post.values, CLEARABLE),
    });
    if (!outcome.ok) return refused(request, reply, deps, post, outcome.error, key, formKey);
    return answerDone(reply, deps, post, {
      to: requestTypesHref(key),
      flash: { kind: 'success', text: `Saved ${outcome.value.name}.` },
    });
  });
}
