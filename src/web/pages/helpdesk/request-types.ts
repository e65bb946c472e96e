import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalid, type ApiError } from '../../../core/errors.ts';
import type { RequestType, RequestTypeList } from '../../../modules/helpdesk/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../actions.ts';
import { button, emptyState, form, linkButton, table, type Column } from '../../components/index.ts';
import { html, type Html } from '../../html.ts';
import { requestTypeHref, requestTypesHref } from '../../links.ts';
import { requireSession } from '../../require-session.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import { formToken, type PagesDeps, type Session } from '../../session.ts';

type FormParams = { key: string; form: string };

const WHO: Record<RequestType['submission'], string> = { authenticated: 'People signed in', open: 'Anyone, with no account' };

/** The project's forms as the member may see them, or the refusal (a project they cannot see, the helpdesk switched off). */
export async function readRequestTypes(
  deps: PagesDeps,
  request: FastifyRequest,
  session: Session,
  project: string,
): Promise<{ ok: true; value: RequestTypeList } | { ok: false; error: ApiError }> {
  return runAsMember<RequestTypeList>(deps, { request, session }, 'list_request_types', { params: { project } });
}

/** Where a dragged row is posted: the order as reorder_request_types takes it, worked out from the drop. */
const orderHref = (project: string) => `${requestTypesHref(project)}/order`;

/** One row's actions: move up or down (the keyboard's and the no-script way to reorder) and retire. */
function rowActions(session: Session, project: string, list: RequestTypeList, index: number): Html {
  const formType = list.request_types[index]!;
  const move = (direction: 'up' | 'down', text: string, disabled: boolean) =>
    disabled
      ? ''
      : form(
          session,
          `${requestTypeHref(project, formType.key)}/move`,
          html`<input type="hidden" name="direction" value="${direction}">${button(text, { kind: 'secondary', label: `${text}: ${formType.name}` })}`,
          { className: 'inline', target: '#request-types', swap: 'outerHTML', label: `${text}: ${formType.name}` },
        );
  // the row's controls are pressed, never a handle to drag the row by (drag.js)
  return html`<div class="row-actions" data-no-drag>${linkButton('Change', `${requestTypeHref(project, formType.key)}/edit`)}${move('up', 'Move up', index === 0)}${move(
    'down',
    'Move down',
    index === list.request_types.length - 1,
  )}${form(
    session,
    `${requestTypeHref(project, formType.key)}/retire`,
    button('Retire', { kind: 'danger', label: `Retire ${formType.name}` }),
    { className: 'inline', target: '#request-types', swap: 'outerHTML', label: `Retire ${formType.name}` },
  )}</div>`;
}

/** The forms in portal order: what the portal offers, to whom, and — for their managers — the ways to change it. */
function formsTable(session: Session, list: RequestTypeList): Html {
  const project = list.project;
  if (list.request_types.length === 0) {
    return html`<div id="request-types">${emptyState(
      'no-request-types',
      'No request types yet',
      'A request type is a form of the helpdesk portal: what a customer fills in to raise a ticket.',
      list.can_manage ? linkButton('Create a request type', `${requestTypesHref(project)}/new`, 'primary') : undefined,
    )}</div>`;
  }
  const columns: Column<RequestType>[] = [
    { header: 'Order', cell: (r) => String(r.position + 1) },
    {
      header: 'Name',
      cell: (r) => html`<strong>${r.name}</strong>${r.description ? html`<br><span class="muted">${r.description}</span>` : ''}`,
    },
    { header: 'Key', cell: (r) => html`<code>${r.key}</code>` },
    { header: 'Ticket type', cell: (r) => r.ticket_type ?? '—' },
    { header: 'Who may submit', cell: (r) => WHO[r.submission] },
    { header: 'In the portal list', cell: (r) => (r.hidden ? 'Hidden (reachable by its link)' : 'Shown') },
    { header: 'Group', cell: (r) => r.portal_group ?? '—' },
  ];
  if (list.can_manage) {
    columns.push({ header: '', cell: (r) => rowActions(session, project, list, list.request_types.indexOf(r)) });
  }
  // a manager drags a row to its place (drag.js posts the drop to the order action); Move up and
  // Move down are the keyboard's and the no-script way to the same operation
  const order = orderHref(project);
  const draggable = list.can_manage ? html` data-moves="${order}" data-csrf="${formToken(session, order)}"` : '';
  const shown = table(columns, list.request_types, {
    id: 'request-types-table',
    caption: `Request types of ${project}, in portal order`,
    rowAttributes: (r) => (list.can_manage ? html`data-request-type="${r.key}" data-key="${r.key}"` : html`data-request-type="${r.key}"`),
    ...(list.can_manage ? { bodyAttributes: html`data-drop="request-types" data-field="project" data-value="${project}"` } : {}),
  });
  return html`<div id="request-types"${draggable}>${
    list.can_manage && list.request_types.length > 1
      ? html`<p class="muted" id="drag-hint">Drag a row to its place in the portal, or use Move up and Move down.</p>`
      : ''
  }${shown}</div>`;
}

function whatMayChange(list: RequestTypeList): Html {
  if (!list.can_manage)
    return html`<p class="muted">You may read these forms; changing them needs the helpdesk forms permission in ${list.project}.</p>`;
  return list.can_publish
    ? html`<p class="muted">You may change these forms, and open a form to anyone with no account.</p>`
    : html`<p class="muted">You may change these forms, but not open one to anyone with no account or change one that is: that needs the helpdesk publish permission.</p>`;
}

async function showList(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PagesDeps,
  session: Session,
  project: string,
): Promise<FastifyReply> {
  const listed = await readRequestTypes(deps, request, session, project);
  if (!listed.ok) {
    return memberErrorPage(reply, deps, session, listed.error.status === 422 ? 404 : listed.error.status, listed.error.message, [
      { label: 'Request types' },
    ]);
  }
  const list = listed.value;
  const body = html`<div class="card"><h1>Request types of ${list.project}</h1>
${whatMayChange(list)}
${list.can_manage && list.request_types.length > 0 ? html`<p>${linkButton('Create a request type', `${requestTypesHref(list.project)}/new`, 'primary')}</p>` : ''}
${formsTable(session, list)}</div>`;
  return sendMemberPage(request, reply, deps, session, {
    title: `Request types · ${list.project}`,
    body,
    section: 'home',
    crumbs: [{ label: list.project, href: `/projects/${encodeURIComponent(list.project)}` }, { label: 'Request types' }],
    ...(list.can_manage ? { scripts: ['sortable', 'drag'] } : {}),
  });
}

/** After a change of the list: htmx gets the table again, a plain form goes back to the page. */
async function answerWithList(reply: FastifyReply, deps: PagesDeps, post: PagePost, project: string, text: string): Promise<FastifyReply> {
  return answerDone(reply, deps, post, {
    to: requestTypesHref(project),
    flash: { kind: 'success', text },
    fragment: async () => {
      const listed = await readRequestTypes(deps, post.request, post.session, project);
      return listed.ok ? formsTable(post.session, listed.value) : html`<div id="request-types"></div>`;
    },
  });
}

/**
 * The new order when one form moves a place up or down: the active forms' keys in portal order,
 * two of them swapped (reorder_request_types puts the named forms first, in that order).
 */
export function movedOrder(keys: readonly string[], key: string, direction: 'up' | 'down'): string[] | null {
  const at = keys.findIndex((k) => k.toLowerCase() === key.toLowerCase());
  const to = direction === 'up' ? at - 1 : at + 1;
  if (at < 0 || to < 0 || to >= keys.length) return null;
  const order = [...keys];
  [order[at], order[to]] = [order[to]!, order[at]!];
  return order;
}

/**
 * The new order when a form is dropped beside another (drag.js: `before` the form it landed above,
 * else `after` the one it landed below, else at the end): the active forms' keys in portal order.
 * Null when a key is none of them.
 */
export function droppedOrder(keys: readonly string[], key: string, beside: { before?: string; after?: string }): string[] | null {
  const same = (a: string) => (b: string) => a.toLowerCase() === b.toLowerCase();
  const moved = keys.find(same(key));
  if (moved === undefined) return null;
  const rest = keys.filter((k) => k !== moved);
  const neighbour = beside.before ?? beside.after;
  if (neighbour === undefined) return [...rest, moved];
  const at = rest.findIndex(same(neighbour));
  if (at < 0) return null;
  rest.splice(beside.before !== undefined ? at : at + 1, 0, moved);
  return rest;
}

/** /projects/:key/request-types: a helpdesk project's portal forms, ordered, moved and retired by their managers. */
export function requestTypeListRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/projects/:key/request-types', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    return showList(request, reply, deps, session, (request.params as { key: string }).key);
  });

  app.post('/projects/:key/request-types/:form/move', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key, form: formKey } = request.params as FormParams;
    const listed = await readRequestTypes(deps, request, post.session, key);
    if (!listed.ok) return answerRefused(reply, deps, post, listed.error);
    const direction = post.values.direction === 'up' ? 'up' : 'down';
    const order = movedOrder(
      listed.value.request_types.map((r) => r.key),
      formKey,
      direction,
    );
    if (order === null) return answerWithList(reply, deps, post, listed.value.project, 'The order is unchanged.');
    const outcome = await runAsMember<RequestTypeList>(deps, post, 'reorder_request_types', { params: { project: key }, body: { order } });
    if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
    const moved = outcome.value.request_types.find((r) => r.key.toLowerCase() === formKey.toLowerCase());
    return answerWithList(reply, deps, post, outcome.value.project, `Moved ${moved?.name ?? formKey} ${direction}.`);
  });

  // a drop (drag.js): the same operation as Move up and Move down, with the order the drop gives
  app.post('/projects/:key/request-types/order', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key } = request.params as { key: string };
    const listed = await readRequestTypes(deps, request, post.session, key);
    if (!listed.ok) return answerRefused(reply, deps, post, listed.error);
    const text = (name: string) => {
      const value = post.values[name];
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    const formKey = text('key') ?? '';
    const before = text('before');
    const after = text('after');
    const order = droppedOrder(
      listed.value.request_types.map((r) => r.key),
      formKey,
      { ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) },
    );
    if (order === null) {
      return answerRefused(
        reply,
        deps,
        post,
        invalid('/order', `${formKey || 'that form'} is not among the forms of ${listed.value.project}`),
      );
    }
    const outcome = await runAsMember<RequestTypeList>(deps, post, 'reorder_request_types', { params: { project: key }, body: { order } });
    if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
    const place = outcome.value.request_types.findIndex((r) => r.key.toLowerCase() === formKey.toLowerCase());
    const moved = outcome.value.request_types[place];
    return answerWithList(reply, deps, post, outcome.value.project, `Moved ${moved?.name ?? formKey} to place ${place + 1}.`);
  });

  app.post('/projects/:key/request-types/:form/retire', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key, form: formKey } = request.params as FormParams;
    const outcome = await runAsMember<RequestType>(deps, post, 'retire_request_type', { params: { project: key, request_type: formKey } });
    if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
    return answerWithList(reply, deps, post, key.toUpperCase(), `Retired ${outcome.value.name}: the portal no longer offers it.`);
  });
}
