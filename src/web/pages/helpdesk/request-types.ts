import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../../../core/errors.ts';
import type { RequestType, RequestTypeList } from '../../../modules/helpdesk/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../actions.ts';
import { button, emptyState, form, linkButton, table, type Column } from '../../components/index.ts';
import { html, type Html } from '../../html.ts';
import { requestTypeHref, requestTypesHref } from '../../links.ts';
import { requireSession } from '../../require-session.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';

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
  return html`<div class="row-actions">${linkButton('Change', `${requestTypeHref(project, formType.key)}/edit`)}${move('up', 'Move up', index === 0)}${move(
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
  return html`<div id="request-types">${table(columns, list.request_types, {
    id: 'request-types-table',
    caption: `Request types of ${project}, in portal order`,
    rowAttributes: (r) => html`data-request-type="${r.key}"`,
  })}</div>`;
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

  app.post('/projects/:key/request-types/:form/retire', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key, form: formKey } = request.params as FormParams;
    const outcome = await runAsMember<RequestType>(deps, post, 'retire_request_type', { params: { project: key, request_type: formKey } });
    if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
    return answerWithList(reply, deps, post, key.toUpperCase(), `Retired ${outcome.value.name}: the portal no longer offers it.`);
  });
}
