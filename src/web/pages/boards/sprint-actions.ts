import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import type { Backlog, CompletedSprint, Sprint, SprintList } from '../../../modules/boards/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../actions.ts';
import { button, field, form } from '../../components/index.ts';
import { EMPTY_FORM, formInput, refusedForm, type FormState, type FormValues } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { moduleOpen } from '../../module-gate.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { requireSession } from '../../require-session.ts';
import { backlogHref, showBacklog } from './backlog-page.ts';
import { boardNumber } from './board-page.ts';

interface SprintPath {
  number: number;
  sprint: string;
}

function sprintPath(params: unknown): SprintPath | null {
  const number = boardNumber(params);
  const sprint = (params as { sprint?: string }).sprint;
  return number === null || !sprint ? null : { number, sprint };
}

const bodyOf = (deps: PagesDeps, operation: string, values: FormValues) => formInput(deps.registry.byName.get(operation)!.body!, values);

/** A sprint of the board as the member sees it (list_sprints), with whether they may manage it. */
async function readSprint(deps: PagesDeps, post: Pick<PagePost, 'request' | 'session'>, at: SprintPath) {
  const listed = await runAsMember<SprintList>(deps, post, 'list_sprints', { params: { number: at.number } });
  if (!listed.ok) return listed;
  const sprint = listed.value.sprints.find((s) => s.id === at.sprint);
  if (!sprint) return { ok: false as const, error: new ApiError('not_found', `Board ${at.number} has no such sprint.`) };
  return { ok: true as const, value: { sprint, canManage: listed.value.can_manage } };
}

const day = (value: string | null) => (value ? value.slice(0, 10) : '');

function startForm(session: Session, at: SprintPath, sprint: Sprint, state: FormState): Html {
  const content = html`${field({ name: 'start_date', label: 'Start date', type: 'date', optional: true, hint: 'Left empty: now.', value: day(sprint.start_at), state })}${field(
    { name: 'end_date', label: 'End date', type: 'date', value: day(sprint.end_at), state },
  )}${field({ name: 'goal', label: 'Goal', optional: true, value: sprint.goal ?? '', state })}<div class="form-actions">${button('Start sprint')}</div>`;
  return form(session, `/boards/${at.number}/sprints/${at.sprint}/start`, content, { id: 'start-sprint', plain: true, state });
}

function completeForm(session: Session, at: SprintPath, others: readonly Sprint[], state: FormState): Html {
  const choices = [{ value: 'backlog', label: 'The backlog' }, ...others.map((s) => ({ value: s.id, label: `Sprint ${s.name}` }))];
  const content = html`${field({ name: 'move_open_to', label: 'Unfinished tickets go to', type: 'select', choices, state })}<div class="form-actions">${button(
    'Complete sprint',
  )}</div>`;
  return form(session, `/boards/${at.number}/sprints/${at.sprint}/complete`, content, { id: 'complete-sprint', plain: true, state });
}

type Drawn = (sprint: Sprint, state: FormState) => Promise<Html> | Html;

/** A sprint's own page (start, complete): its form, with what was typed and the reason at its field after a refusal. */
async function sprintPage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PagesDeps,
  session: Session,
  at: SprintPath,
  verb: 'Start' | 'Complete',
  draw: Drawn,
  state: FormState = EMPTY_FORM,
  status = 200,
): Promise<FastifyReply> {
  const read = await readSprint(deps, { request, session }, at);
  const back = [
    { label: 'Boards', href: '/boards' },
    { label: `Board ${at.number}`, href: `/boards/${at.number}` },
  ];
  if (!read.ok) return memberErrorPage(reply, deps, session, read.error.status === 403 ? 403 : 404, read.error.message, back);
  const { sprint, canManage } = read.value;
  if (!canManage)
    return memberErrorPage(
      reply,
      deps,
      session,
      403,
      'Only an administrator, or a project administrator of every project of this board, manages its sprints.',
      back,
    );
  const title = `${verb} sprint ${sprint.name}`;
  const body = html`<div class="card"><h1>${title}</h1>${await draw(sprint, state)}<p><a href="${backlogHref(at.number)}">Back to the backlog</a></p></div>`;
  return sendMemberPage(
    request,
    reply,
    deps,
    session,
    { title, body, section: 'boards', crumbs: [...back, { label: 'Backlog', href: backlogHref(at.number) }, { label: title }] },
    status,
  );
}

/**
 * The sprints of a board (spec 3.1), each change the API's operation: create a future sprint
 * (on the backlog page), start one (its dates and goal), complete the active one (where its
 * unfinished tickets go), delete a future one. Plain forms: POST → 303 → GET, a 422 at its field.
 */
export function sprintRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.post('/boards/:number/sprints', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const number = boardNumber(request.params);
    if (number === null) return answerRefused(reply, deps, post, new ApiError('not_found', 'There is no board with this number.'));
    const outcome = await runAsMember<Sprint>(deps, post, 'create_sprint', {
      params: { number },
      body: bodyOf(deps, 'create_sprint', post.values),
    });
    if (!outcome.ok) {
      const create = refusedForm(outcome.error, post.values, ['name', 'goal', 'start_date', 'end_date']);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => showBacklog(request, reply, deps, post.session, number, { create, status }),
      });
    }
    return answerDone(reply, deps, post, {
      to: backlogHref(number),
      flash: { kind: 'success', text: `Created sprint ${outcome.value.name}.` },
    });
  });

  app.post('/boards/:number/sprints/:sprint/delete', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const at = sprintPath(request.params);
    if (!at) return answerRefused(reply, deps, post, new ApiError('not_found', 'There is no such sprint.'));
    const outcome = await runAsMember<{ deleted: Sprint }>(deps, post, 'delete_sprint', { params: { ...at } });
    if (!outcome.ok) {
      const text = outcome.error.message;
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => showBacklog(request, reply, deps, post.session, at.number, { flash: { kind: 'error', text }, status }),
      });
    }
    const name = outcome.value.deleted.name;
    return answerDone(reply, deps, post, {
      to: backlogHref(at.number),
      flash: { kind: 'success', text: `Deleted sprint ${name}; its tickets are back in the backlog.` },
    });
  });

  const startDrawn = (session: Session, at: SprintPath) => (sprint: Sprint, state: FormState) =>
    sprint.state === 'future'
      ? html`<p>A board runs one active sprint at a time. Its end date is needed; the goal is optional.</p>${startForm(session, at, sprint, state)}`
      : html`${state.problem ? html`<p class="error" role="alert">${state.problem}</p>` : ''}<p>Sprint ${sprint.name} is ${sprint.state}: only a future sprint starts.</p>`;

  app.get('/boards/:number/sprints/:sprint/start', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return reply;
    const at = sprintPath(request.params);
    if (!at) return memberErrorPage(reply, deps, session, 404, 'There is no such sprint.');
    return sprintPage(request, reply, deps, session, at, 'Start', startDrawn(session, at));
  });

  app.post('/boards/:number/sprints/:sprint/start', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const at = sprintPath(request.params);
    if (!at) return answerRefused(reply, deps, post, new ApiError('not_found', 'There is no such sprint.'));
    const body = bodyOf(deps, 'start_sprint', post.values);
    let outcome = await runAsMember<Sprint>(deps, post, 'start_sprint', { params: { ...at }, body });
    // the goal is the sprint's own field (update_sprint), set once the start is taken: a refused start changes nothing
    const goal = typeof post.values.goal === 'string' ? post.values.goal.trim() : undefined;
    if (outcome.ok && goal !== undefined && goal !== (outcome.value.goal ?? '')) {
      outcome = await runAsMember<Sprint>(deps, post, 'update_sprint', { params: { ...at }, body: { goal: goal === '' ? null : goal } });
    }
    if (!outcome.ok) {
      const state = refusedForm(outcome.error, post.values, ['start_date', 'end_date', 'goal']);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => sprintPage(request, reply, deps, post.session, at, 'Start', startDrawn(post.session, at), state, status),
      });
    }
    return answerDone(reply, deps, post, {
      to: `/boards/${at.number}`,
      flash: { kind: 'success', text: `Started sprint ${outcome.value.name}; the board shows it.` },
    });
  });

  /** The complete page: how many tickets are unfinished, and where they may go (the backlog, or a future sprint). */
  const completeDrawn = (request: FastifyRequest, session: Session, at: SprintPath) => async (sprint: Sprint, state: FormState) => {
    if (sprint.state !== 'active')
      return html`${state.problem ? html`<p class="error" role="alert">${state.problem}</p>` : ''}<p>Sprint ${sprint.name} is ${sprint.state}: only the active sprint is completed.</p>`;
    const backlog = await runAsMember<Backlog>(deps, { request, session }, 'get_backlog', { params: { number: at.number } });
    const open = backlog.ok ? backlog.value.sprints : [];
    const tickets = open.find((s) => s.id === sprint.id)?.tickets ?? [];
    const unfinished = tickets.filter((t) => t.status?.category !== 'done').length;
    const others = open.filter((s) => s.id !== sprint.id && s.state === 'future');
    return html`<p>${tickets.length - unfinished} done tickets stay in the sprint; ${unfinished} unfinished ${unfinished === 1 ? 'ticket moves' : 'tickets move'} on.</p>${completeForm(
      session,
      at,
      others,
      state,
    )}`;
  };

  app.get('/boards/:number/sprints/:sprint/complete', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return reply;
    const at = sprintPath(request.params);
    if (!at) return memberErrorPage(reply, deps, session, 404, 'There is no such sprint.');
    return sprintPage(request, reply, deps, session, at, 'Complete', completeDrawn(request, session, at));
  });

  app.post('/boards/:number/sprints/:sprint/complete', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const at = sprintPath(request.params);
    if (!at) return answerRefused(reply, deps, post, new ApiError('not_found', 'There is no such sprint.'));
    const body = bodyOf(deps, 'complete_sprint', post.values);
    const outcome = await runAsMember<CompletedSprint>(deps, post, 'complete_sprint', { params: { ...at }, body });
    if (!outcome.ok) {
      const state = refusedForm(outcome.error, post.values, ['move_open_to']);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) =>
          sprintPage(request, reply, deps, post.session, at, 'Complete', completeDrawn(request, post.session, at), state, status),
      });
    }
    const moved = outcome.value.moved.length;
    return answerDone(reply, deps, post, {
      to: backlogHref(at.number),
      flash: {
        kind: 'success',
        text: `Completed sprint ${outcome.value.name}; ${moved} unfinished ${moved === 1 ? 'ticket' : 'tickets'} moved on.`,
      },
    });
  });
}
