import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import { describeProject, visibleProjects } from '../../../modules/projects/index.ts';
import {
  customFieldsFor,
  getTicket,
  ticketVersionChoices,
  type FieldShape,
  type Ticket,
  type VersionChoices,
} from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, field, form } from '../../components/index.ts';
import { EMPTY_FORM, formInput, refusedForm, type FormState, type FormValues } from '../../forms.ts';
import { Html, html } from '../../html.ts';
import { fieldLabel } from '../../format.ts';
import { personLink, ticketHref, ticketLink } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { requireSession } from '../../require-session.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import { renderRichText } from '../../rich-text.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { customFieldInputs, customFieldName, customFieldValues } from './custom-fields.ts';
import { markdownField, wantsPreview } from './markdown-field.ts';

type ProjectDetail = Awaited<ReturnType<typeof describeProject>>;

/** What an edit form is drawn from: the ticket as it is, its project's names, the reader's project keys. */
interface EditContext {
  session: Session;
  ticket: Ticket;
  project: ProjectDetail | null;
  /** The custom fields the ticket's type has. */
  custom: FieldShape[];
  keys: ReadonlySet<string>;
  /** The versions each list may name (read for a versions form only). */
  versions: VersionChoices | null;
}

/** A field of the ticket changed in place: where the page shows it, how, and the form that changes it. */
interface Editable {
  /** Its name in update_ticket's body. */
  name: string;
  label: string;
  /** The id of the element on the ticket page that shows it, and that htmx swaps. */
  slot: string;
  show(ticket: Ticket, keys: ReadonlySet<string>): Html | string;
  input(edit: EditContext, state: FormState | undefined): Html;
  /** The operation Save runs: update_ticket, or set_ticket_versions for the lists PATCH does not take. */
  operation?: 'set_ticket_versions';
}

const orNone = (value: Html | string | null | undefined) => (value === null || value === undefined || value === '' ? '—' : value);
const names = (values: readonly string[]) => (values.length ? values.join(', ') : null);
const choices = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

const EDITABLES: readonly Editable[] = [
  {
    name: 'summary',
    label: 'Summary',
    slot: 'summary-line',
    show: (t) => html`<h1><span id="ticket-key">${t.key}</span> ${t.summary}</h1>`,
    input: (e, state) => field({ name: 'summary', label: 'Summary', value: e.ticket.summary, state }),
  },
  {
    name: 'description',
    label: 'Description',
    slot: 'description',
    show: (t, keys) => renderRichText(t.description, keys),
    input: (e, state) =>
      markdownField(e.session, {
        name: 'description',
        label: 'Description',
        hint: 'Markdown: **bold**, lists, `code`, links; a ticket key becomes a link. Empty removes it.',
        value:
          e.ticket.description?.format === 'markdown'
            ? e.ticket.description.text
            : (e.ticket.description?.markdown ?? e.ticket.description?.text ?? ''),
        state,
        keys: e.keys,
      }),
  },
  {
    name: 'priority',
    label: 'Priority',
    slot: 'priority',
    show: (t) => orNone(t.priority),
    input: (e, state) =>
      field({
        name: 'priority',
        label: 'Priority',
        type: 'select',
        value: e.ticket.priority ?? '',
        state,
        choices: choices(e.project?.priorities ?? []),
      }),
  },
  {
    name: 'assignee',
    label: 'Assignee',
    slot: 'assignee',
    show: (t) => personLink(t.assignee, 'Unassigned'),
    input: (e, state) =>
      field({
        name: 'assignee',
        label: 'Assignee',
        type: 'select',
        value: e.ticket.assignee?.id ?? '',
        state,
        choices: [{ value: '', label: 'Unassigned' }, ...(e.project?.assignable_users ?? []).map((p) => ({ value: p.id, label: p.name }))],
      }),
  },
  {
    name: 'labels',
    label: 'Labels',
    slot: 'labels',
    show: (t) => orNone(names(t.labels)),
    input: (e, state) =>
      field({
        name: 'labels',
        label: 'Labels',
        hint: `Separated by commas; a new one joins the project. In use: ${e.project?.labels.join(', ') || 'none yet'}.`,
        value: e.ticket.labels.join(', '),
        state,
      }),
  },
  {
    name: 'components',
    label: 'Components',
    slot: 'components',
    show: (t) => orNone(names(t.components)),
    input: (e, state) => componentChoices(e.project?.components ?? [], state ? state.values.components : e.ticket.components, state),
  },
  ...(['fix_versions', 'affected_versions'] as const).map(
    (name): Editable => ({
      name,
      label: name === 'fix_versions' ? 'Fix versions' : 'Affected versions',
      slot: name === 'fix_versions' ? 'fix-versions' : 'affected-versions',
      operation: 'set_ticket_versions',
      show: (t) => orNone(names(t[name])),
      input: (e, state) =>
        checkChoices({
          name,
          legend: name === 'fix_versions' ? 'Fix versions' : 'Affected versions',
          idPrefix: name === 'fix_versions' ? 'fix-version' : 'affected-version',
          all: e.versions?.[name] ?? [],
          chosen: state ? state.values[name] : e.ticket[name],
          state,
          none: 'The project has no versions.',
        }),
    }),
  ),
  {
    name: 'due_date',
    label: 'Due date',
    slot: 'due-date',
    show: (t) => orNone(t.due_date),
    input: (e, state) =>
      field({ name: 'due_date', label: 'Due date', type: 'date', value: e.ticket.due_date ?? '', optional: true, state }),
  },
  {
    name: 'parent',
    label: 'Parent',
    slot: 'parent',
    show: (t) => (t.parent ? ticketLink(t.parent) : '—'),
    input: (e, state) =>
      field({
        name: 'parent',
        label: 'Parent',
        hint: 'The key of an epic or a ticket of the same project.',
        value: e.ticket.parent ?? '',
        optional: true,
        state,
      }),
  },
  {
    name: 'fields',
    label: 'Custom fields',
    slot: 'custom-fields',
    show: (t) => {
      const set = Object.entries(t.fields ?? {});
      return set.length
        ? html`<dl class="facts">${set.map(([key, value]) => html`<dt>${fieldLabel(key)}</dt><dd id="field-${key}">${value}</dd>`)}</dl>`
        : html`<p class="muted">None set.</p>`;
    },
    input: (e, state) => customFieldInputs(e.custom, state ?? { ...EMPTY_FORM, values: currentFields(e) }),
  },
];

/** The custom fields as the form shows them at first: their values now (several choices each checked). */
function currentFields(edit: EditContext): FormValues {
  const values: Record<string, string | string[]> = {};
  for (const shape of edit.custom) {
    const shown = edit.ticket.fields?.[shape.key];
    if (shown === undefined) continue;
    values[customFieldName(shape.key)] = shape.type === 'multi_select' ? shown.split(', ') : shown;
  }
  return values;
}

const BY_NAME = new Map(EDITABLES.map((e) => [e.name, e]));

/** A list chosen by checkboxes, as a fieldset with its legend, its error and what the member picked. */
interface CheckChoices {
  name: string;
  legend: string;
  /** The boxes' ids are this with their index. */
  idPrefix: string;
  all: readonly string[];
  chosen: string | readonly string[] | undefined;
  state: FormState | undefined;
  /** Said when there is nothing to choose. */
  none: string;
}

/**
 * A list as checkboxes: a hidden empty value is always sent, so leaving every box empty says
 * "none" (the operation replaces the list) rather than "unchanged".
 */
export function checkChoices(c: CheckChoices): Html {
  const picked = new Set(typeof c.chosen === 'string' ? [c.chosen] : (c.chosen ?? []));
  const error = c.state?.errors[c.name];
  const errorId = `field-${c.name}-error`;
  return html`<fieldset class="field choices"${error ? html` aria-describedby="${errorId}"` : ''}><legend class="label">${c.legend}</legend><input type="hidden" name="${c.name}" value="">${
    c.all.length
      ? c.all.map(
          (name, i) =>
            html`<label class="check" for="${c.idPrefix}-${i}"><input type="checkbox" id="${c.idPrefix}-${i}" name="${c.name}" value="${name}"${picked.has(name) ? html` checked` : ''}> ${name}</label>`,
        )
      : html`<p class="muted">${c.none}</p>`
  }${error ? html`<p class="field-error" id="${errorId}">${error}</p>` : ''}</fieldset>`;
}

/** Components as checkboxes (the edit form's and the create form's). */
export function componentChoices(
  all: readonly string[],
  chosen: string | readonly string[] | undefined,
  state: FormState | undefined,
): Html {
  return checkChoices({
    name: 'components',
    legend: 'Components',
    idPrefix: 'component',
    all,
    chosen,
    state,
    none: 'The project has no components.',
  });
}

/** The names a checkbox list sent: the boxes checked, without the hidden empty value. */
export function checkedNames(value: string | readonly string[] | undefined): string[] {
  return (typeof value === 'string' ? [value] : (value ?? [])).filter((v) => v !== '');
}

const editHref = (key: string, name: string) => `${ticketHref(key)}/edit/${name}`;

function editLink(key: string, editable: Editable): Html {
  const href = editHref(key, editable.name);
  return html`<a class="edit-link" href="${href}" hx-get="${href}" hx-target="#${editable.slot}" hx-swap="innerHTML">Edit<span class="visually-hidden"> ${editable.label.toLowerCase()}</span></a>`;
}

/** A field as the ticket page shows it, with its Edit link when `offered`: the inside of its slot. */
export function shownField(name: string, ticket: Ticket, keys: ReadonlySet<string>, offered = true): Html {
  const editable = BY_NAME.get(name);
  if (!editable) throw new Error(`${name} is not a field changed in place`);
  return offered ? html`${editable.show(ticket, keys)} ${editLink(ticket.key, editable)}` : html`${editable.show(ticket, keys)}`;
}

/**
 * The field's first control takes the focus when the form appears: the member types at once, and
 * the page's live refresh waits while they do (app.js), so the form is not swapped away.
 */
function focusFirst(input: Html): Html {
  return new Html(input.value.replace(/<(select|textarea|input(?! type="hidden"))\b/, '$& autofocus'));
}

/**
 * The form that changes one field: with htmx it takes the field's place on the ticket page and
 * answers with the field shown again; as a page of its own (no script) it goes back to the ticket.
 */
function editForm(edit: EditContext, editable: Editable, state: FormState | undefined, inPlace: boolean): Html {
  const action = editHref(edit.ticket.key, editable.name);
  const content = html`${focusFirst(editable.input(edit, state))}<div class="form-actions">${button('Save')} <a class="btn secondary" href="${ticketHref(edit.ticket.key)}">Cancel</a></div>`;
  return form(edit.session, action, content, {
    id: `edit-${editable.name}`,
    label: `Change ${editable.label.toLowerCase()}`,
    state,
    // in place, the page's live refresh waits until the form is gone (app.js)
    ...(inPlace ? { target: `#${editable.slot}`, swap: 'innerHTML', className: 'in-place' } : { plain: true }),
  });
}

async function editContext(
  deps: PagesDeps,
  request: FastifyRequest,
  session: Session,
  key: string,
  editable: Editable,
): Promise<EditContext> {
  const ctx = await readContext(deps, session, request.id, request.log);
  const [ticket, projects] = await Promise.all([getTicket(ctx, key), visibleProjects(ctx)]);
  const [project, custom, versions] = ticket.project
    ? await Promise.all([
        describeProject(ctx, ticket.project),
        customFieldsFor(ctx, ticket.project, ticket.type ?? undefined),
        editable.operation === 'set_ticket_versions' ? ticketVersionChoices(ctx, ticket.key, ticket) : null,
      ])
    : [null, [], null];
  return { session, ticket, project, custom, keys: new Set(projects.map((p) => p.key)), versions };
}

async function showEditPage(
  request: FastifyRequest,
  reply: FastifyReply,
  edit: EditContext,
  deps: PagesDeps,
  editable: Editable,
  state: FormState | undefined,
  status = 200,
): Promise<FastifyReply> {
  const { ticket } = edit;
  const title = `Change the ${editable.label.toLowerCase()} of ${ticket.key}`;
  const body = html`<div class="card"><h1>${title}</h1><p>${ticketLink(ticket.key)} ${ticket.summary}</p>${editForm(edit, editable, state, false)}</div>`;
  return sendMemberPage(
    request,
    reply,
    deps,
    edit.session,
    {
      title,
      body,
      section: 'home',
      crumbs: [
        ...(ticket.project ? [{ label: ticket.project, href: `/projects/${encodeURIComponent(ticket.project)}` }] : []),
        { label: ticket.key, href: ticketHref(ticket.key) },
        { label: `Change ${editable.label.toLowerCase()}` },
      ],
    },
    status,
  );
}

/** update_ticket's body from one field's form: only that field, an emptied one cleared. */
function changeOf(deps: PagesDeps, editable: Editable, values: FormValues, custom: readonly FieldShape[]): Record<string, unknown> {
  // every custom field the form shows is sent: emptied, it is cleared (null), as spec 2.4 says
  if (editable.operation === 'set_ticket_versions') return { [editable.name]: checkedNames(values[editable.name]) };
  if (editable.name === 'fields') {
    const given = customFieldValues(custom, values) ?? {};
    return { fields: Object.fromEntries(custom.map((shape) => [shape.key, given[shape.key] ?? null])) };
  }
  const only: FormValues = editable.name in values ? { [editable.name]: values[editable.name]! } : { [editable.name]: '' };
  const body = formInput(deps.registry.byName.get('update_ticket')!.body!, only, [editable.name]);
  // emptied: a description is removed (null), as the API's PATCH says it; a field that cannot be
  // empty (a summary) is sent empty, for the operation to refuse at the field rather than ignore
  if (body[editable.name] === undefined) body[editable.name] = editable.name === 'description' ? null : '';
  return body;
}

/**
 * /browse/:key/edit/:field: change one field of the ticket in place (summary, description,
 * priority, assignee, labels, components, due date, parent) through update_ticket, or its fix or
 * affected versions through set_ticket_versions (web-only: PATCH does not take them).
 */
export function editTicketRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/browse/:key/edit/:field', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key, field: name } = request.params as { key: string; field: string };
    const editable = BY_NAME.get(name);
    if (!editable) return memberErrorPage(reply, deps, session, 404, `A ticket has no field ${name} to change here`);
    try {
      const edit = await editContext(deps, request, session, key, editable);
      if (request.headers['hx-request'] === 'true')
        return reply.type('text/html; charset=utf-8').send(editForm(edit, editable, undefined, true).value);
      return showEditPage(request, reply, edit, deps, editable, undefined);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
        return memberErrorPage(reply, deps, session, error.status, error.message);
      }
      throw error;
    }
  });

  app.post('/browse/:key/edit/:field', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key, field: name } = request.params as { key: string; field: string };
    const editable = BY_NAME.get(name);
    if (!editable) return memberErrorPage(reply, deps, post.session, 404, `A ticket has no field ${name} to change here`);
    const again = async (state: FormState, status: number) => {
      const edit = await editContext(deps, request, post.session, key, editable);
      if (post.htmx)
        return reply
          .code(status)
          .type('text/html; charset=utf-8')
          .send(editForm(edit, editable, state, true).value);
      return showEditPage(request, reply, edit, deps, editable, state, status);
    };
    const sent: FormState = { ...EMPTY_FORM, values: post.values };
    if (wantsPreview(sent)) return again(sent, 200);
    const custom = editable.name === 'fields' ? (await editContext(deps, request, post.session, key, editable)).custom : [];
    const body = changeOf(deps, editable, post.values, custom);
    const outcome = await runAsMember<Ticket>(deps, post, editable.operation ?? 'update_ticket', { params: { key }, body });
    if (!outcome.ok) {
      const state = refusedForm(outcome.error, post.values, [editable.name, ...custom.map((f) => customFieldName(f.key))]);
      if (outcome.error.status === 404) return answerRefused(reply, deps, post, outcome.error);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => again(state, status),
        fragment: async () => {
          const edit = await editContext(deps, request, post.session, key, editable);
          return editForm(edit, editable, state, true);
        },
      });
    }
    const ticket = outcome.value;
    const ctx = await readContext(deps, post.session, request.id, request.log);
    const keys = new Set((await visibleProjects(ctx)).map((p) => p.key));
    return answerDone(reply, deps, post, {
      to: ticketHref(ticket.key),
      flash: { kind: 'success', text: `Changed the ${editable.label.toLowerCase()} of ${ticket.key}.` },
      fragment: () => shownField(editable.name, ticket, keys),
    });
  });
}
