import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import { listBoards, type Backlog, type SprintList } from '../../../modules/boards/index.ts';
import type { Ticket } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, emptyState, field, form, type Flash } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { EMPTY_FORM, type FormState, type FormValues } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { personLink, ticketLink } from '../../links.ts';
import { moduleOpen } from '../../module-gate.ts';
import { readContext } from '../../read-context.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import { formToken, type PagesDeps, type Session, type WebDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';
import { boardNumber } from './board-page.ts';
import { canGo, moveLink, readTarget, type MoveMenu } from './move-menu.ts';

type OpenSprint = Backlog['sprints'][number];
type Summary = Backlog['backlog'][number];

export const backlogHref = (number: number) => `/boards/${number}/backlog`;

const sprintHeading = (id: string) => `sprint-${id}-name`;

/** The page of one ticket's "Move to…" form on the backlog. */
export const backlogMoveHref = (number: number, key: string) => `${backlogHref(number)}/moves/new?key=${encodeURIComponent(key)}`;

/** Where the backlog's tickets can go (its open sprints, then the backlog), and where their "Move to…" posts. */
export function backlogMenu(session: Session, number: number, backlog: Backlog): MoveMenu {
  const action = `${backlogHref(number)}/moves`;
  return {
    action,
    csrf: formToken(session, action),
    lists: [
      ...backlog.sprints.map((s) => ({ value: s.id, name: s.name, keys: s.tickets.map((t) => t.key) })),
      { value: 'backlog', name: 'Backlog', keys: backlog.backlog.map((t) => t.key) },
    ],
  };
}

function ticketRow(number: number, ticket: Summary, go: boolean): Html {
  const status = ticket.status ? html` · ${ticket.status.name}` : '';
  return html`<li class="board-card" id="card-${ticket.key}" data-key="${ticket.key}">${ticketLink(ticket.key)} ${ticket.summary}<br><span class="muted">${personLink(ticket.assignee, 'Unassigned')}${status}</span>${go ? moveLink(backlogMoveHref(number, ticket.key), ticket.key) : ''}</li>`;
}

function sprintFacts(sprint: OpenSprint, session: Session): Html {
  const start = shownTime(sprint.start_at, session.timezone);
  const end = shownTime(sprint.end_at, session.timezone);
  const dates = start || end ? html` · ${start ?? 'no start'} to ${end ?? 'no end'}` : '';
  const count = `${sprint.tickets.length} ${sprint.tickets.length === 1 ? 'ticket' : 'tickets'}`;
  return html`<p class="muted">${sprint.state === 'active' ? 'Active' : 'Future'}${dates} · ${count}</p>${sprint.goal ? html`<p>Goal: ${sprint.goal}</p>` : ''}`;
}

/** What a sprint manager may do with an open sprint: start or delete a future one, complete the active one. */
function sprintActions(session: Session, number: number, sprint: OpenSprint, canManage: boolean): Html {
  if (!canManage) return html``;
  const base = `/boards/${number}/sprints/${sprint.id}`;
  if (sprint.state === 'active')
    return html`<p class="actions"><a class="btn secondary" href="${base}/complete">Complete sprint ${sprint.name}…</a></p>`;
  const remove = form(
    session,
    `${base}/delete`,
    html`${button(`Delete sprint ${sprint.name}`, { kind: 'danger' })}<span class="muted"> its tickets go back to the backlog</span>`,
    { plain: true, className: 'inline' },
  );
  return html`<div class="actions"><a class="btn secondary" href="${base}/start">Start sprint ${sprint.name}…</a> ${remove}</div>`;
}

function listOf(number: number, heading: string, value: string, tickets: readonly Summary[], go: boolean, empty: string): Html {
  return html`<ul data-drop="backlog" data-field="sprint" data-value="${value}" aria-labelledby="${heading}">${tickets.map((t) => ticketRow(number, t, go))}</ul>${
    tickets.length ? '' : html`<p class="muted">${empty}</p>`
  }`;
}

export function createSprintForm(session: Session, number: number, state: FormState): Html {
  const content = html`${field({ name: 'name', label: 'Name', state })}${field({ name: 'goal', label: 'Goal', optional: true, state })}${field(
    {
      name: 'start_date',
      label: 'Start date',
      type: 'date',
      optional: true,
      state,
    },
  )}${field({ name: 'end_date', label: 'End date', type: 'date', optional: true, state })}<div class="form-actions">${button('Create sprint')}</div>`;
  return form(session, `/boards/${number}/sprints`, content, { id: 'create-sprint', plain: true, state });
}

interface Shown {
  name: string;
  backlog: Backlog;
  sprints: SprintList;
}

function backlogBody(session: Session, number: number, shown: Shown, create: FormState): Html {
  const { backlog, sprints } = shown;
  const menu = backlogMenu(session, number, backlog);
  const sections = backlog.sprints.map((sprint, index) => {
    const heading = sprintHeading(sprint.id);
    return html`<section class="card plan-list" aria-labelledby="${heading}"><h2 id="${heading}">${sprint.name}</h2>${sprintFacts(sprint, session)}${sprintActions(session, number, sprint, sprints.can_manage)}
${listOf(number, heading, sprint.id, sprint.tickets, canGo(menu.lists, index), 'No tickets yet: drag some here, or use a ticket’s “Move to…”.')}</section>`;
  });
  const backlogSection = html`<section class="card plan-list" aria-labelledby="backlog-name"><h2 id="backlog-name">Backlog</h2><p class="muted">Open tickets in no open sprint, in rank order.</p>
${listOf(number, 'backlog-name', 'backlog', backlog.backlog, canGo(menu.lists, backlog.sprints.length), 'No open ticket outside the sprints.')}</section>`;
  const creating = sprints.can_manage
    ? html`<details class="card"${create === EMPTY_FORM ? '' : html` open`}><summary>Create a sprint</summary>${createSprintForm(session, number, create)}</details>`
    : '';
  const noSprint = backlog.sprints.length
    ? ''
    : emptyState(
        'sprints-none',
        'No open sprint.',
        sprints.can_manage ? 'Create one to plan the next piece of work.' : 'A sprint manager creates them.',
      );
  return html`<div class="card"><h1>Backlog: ${shown.name}</h1><p><a href="/boards/${number}">Back to the board</a></p><p class="muted">Drag a ticket to a sprint or the backlog, or to another place in its list, or use its “Move to…”.</p>${noSprint}</div>
${creating}<div class="plan" id="plan" data-moves="${menu.action}" data-csrf="${menu.csrf}">${sections}${backlogSection}</div>`;
}

/** The backlog page, also drawn again by a refused form without script: its reason at the top, or the create form's at its field. */
export async function showBacklog(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PagesDeps,
  session: Session,
  number: number,
  said: { flash?: Flash; status?: number; create?: FormState } = {},
): Promise<FastifyReply> {
  const post = { request, session };
  const [backlog, sprints] = await Promise.all([
    runAsMember<Backlog>(deps, post, 'get_backlog', { params: { number } }),
    runAsMember<SprintList>(deps, post, 'list_sprints', { params: { number } }),
  ]);
  const refused = !backlog.ok ? backlog.error : !sprints.ok ? sprints.error : null;
  if (refused || !backlog.ok || !sprints.ok) {
    const status = refused?.status === 403 ? 403 : 404;
    return memberErrorPage(reply, deps, session, status, refused?.message ?? 'There is no such board.', [
      { label: 'Boards', href: '/boards' },
    ]);
  }
  const boards = await listBoards(await readContext(deps, session, request.id, request.log));
  const name = boards.find((b) => b.number === number)?.name ?? `Board ${number}`;
  return sendMemberPage(
    request,
    reply,
    deps,
    session,
    {
      title: `Backlog: ${name}`,
      body: backlogBody(session, number, { name, backlog: backlog.value, sprints: sprints.value }, said.create ?? EMPTY_FORM),
      live: `board:${number}`,
      section: 'boards',
      scripts: ['sortable', 'drag'],
      crumbs: [{ label: 'Boards', href: '/boards' }, { label: name, href: `/boards/${number}` }, { label: 'Backlog' }],
      ...(said.flash ? { flash: said.flash } : {}),
    },
    said.status,
  );
}

const one = (values: FormValues, name: string): string | undefined => {
  const value = values[name];
  const text = typeof value === 'string' ? value : value?.[0];
  return text === undefined || text.trim() === '' ? undefined : text.trim();
};

/** The move a post names: a drop's `sprint` with `before`/`after`, or a "Move to…" select's `to`. */
function planMoveOf(values: FormValues): { key: string; sprint: string; before?: string; after?: string } | null {
  const key = one(values, 'key');
  const to = one(values, 'to');
  const target = to === undefined ? null : readTarget(to);
  const sprint = target?.list ?? one(values, 'sprint');
  if (!key || !sprint) return null;
  const before = target ? target.before : one(values, 'before');
  const after = target ? target.after : one(values, 'after');
  return { key, sprint, ...(before ? { before } : {}), ...(after ? { after } : {}) };
}

/**
 * /boards/:number/backlog: the open sprints with their tickets and the backlog (get_backlog), and
 * POST …/backlog/moves: a ticket dropped or moved with its "Move to…" into a sprint, the backlog,
 * or another place of its list — the one operation move_to_sprint, one request per move.
 */
export function backlogRoutes(app: FastifyInstance, deps: PagesDeps & WebDeps): void {
  app.get('/boards/:number/backlog', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return reply;
    const number = boardNumber(request.params);
    if (number === null)
      return memberErrorPage(reply, deps, session, 404, 'There is no board with this number.', [{ label: 'Boards', href: '/boards' }]);
    return showBacklog(request, reply, deps, session, number);
  });

  app.post('/boards/:number/backlog/moves', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const number = boardNumber(request.params);
    if (number === null) return answerRefused(reply, deps, post, new ApiError('not_found', 'There is no board with this number.'));
    const move = planMoveOf(post.values);
    if (!move) return answerRefused(reply, deps, post, new ApiError('invalid', 'Choose a ticket and where to move it.'));
    const outcome = await runAsMember<Ticket>(deps, post, 'move_to_sprint', { params: { number }, body: move });
    if (outcome.ok) {
      return answerDone(reply, deps, post, {
        to: `${backlogHref(number)}#card-${outcome.value.key}`,
        flash: { kind: 'success', text: `Moved ${outcome.value.key}.` },
        fragment: () => html``,
      });
    }
    const reason = outcome.error.message.replace(/^\/[^:\s]*: /, '');
    return answerRefused(reply, deps, post, new ApiError(outcome.error.code, reason), {
      page: (status) => showBacklog(request, reply, deps, post.session, number, { flash: { kind: 'error', text: reason }, status }),
    });
  });
}
