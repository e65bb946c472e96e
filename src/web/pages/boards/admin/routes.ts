import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BoardSettings } from '../../../../modules/boards/index.ts';
import { visibleProjects } from '../../../../modules/projects/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../../actions.ts';
import { button, field, form } from '../../../components/index.ts';
import { EMPTY_FORM, type FormState } from '../../../forms.ts';
import { html } from '../../../html.ts';
import { boardHref } from '../../../links.ts';
import { moduleOpen } from '../../../module-gate.ts';
import { readContext } from '../../../read-context.ts';
import { memberErrorPage, sendMemberPage } from '../../../respond.ts';
import type { PagesDeps, Session } from '../../../session.ts';
import { requireSession } from '../../../require-session.ts';
import {
  boardFields,
  columnActionsForm,
  formRows,
  refusedSettings,
  settingsBody,
  settingsForm,
  settingsValues,
  type Row,
} from './settings-form.ts';

const boardNumber = (request: FastifyRequest): number => Number((request.params as { number: string }).number);

async function projectKeys(deps: PagesDeps, request: FastifyRequest, session: Session): Promise<string[]> {
  const ctx = await readContext(deps, session, request.id, request.log);
  return (await visibleProjects(ctx)).map((p) => p.key);
}

async function showCreate(request: FastifyRequest, reply: FastifyReply, deps: PagesDeps, session: Session, state: FormState, status = 200) {
  const content = html`${boardFields(state, await projectKeys(deps, request, session), session.isAdmin)}
<p class="hint">The board starts with a column per status category of its projects' workflows; change them in its settings.</p>
<div class="form-actions">${button('Create board')}</div>`;
  const body = html`<div class="card"><h1>Create a board</h1>${form(session, '/boards/new', content, { id: 'create-board', state, plain: true })}</div>`;
  return sendMemberPage(
    request,
    reply,
    deps,
    session,
    { title: 'Create a board', body, section: 'boards', crumbs: [{ label: 'Boards', href: '/boards' }, { label: 'Create a board' }] },
    status,
  );
}

/** The settings page: the form as stored (or as the member left it), the statuses no column shows, and Delete. */
async function showSettings(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PagesDeps,
  session: Session,
  number: number,
  state: FormState | null,
  status = 200,
  deleting: FormState = EMPTY_FORM,
) {
  const read = await runAsMember<BoardSettings>(deps, { request, session }, 'get_board_settings', { params: { number } });
  if (!read.ok) {
    return memberErrorPage(reply, deps, session, read.error.status === 403 ? 403 : 404, read.error.message, [
      { label: 'Boards', href: '/boards' },
    ]);
  }
  const settings = read.value;
  const shown = state ?? { ...EMPTY_FORM, values: settingsValues(settings) };
  const statuses = [...new Set([...settings.statuses, ...settings.columns.flatMap((c) => c.statuses)])];
  const unmapped = settings.unmapped_statuses.length
    ? html`<p id="unmapped-statuses">Statuses no column shows (their tickets are not on the board): <strong>${settings.unmapped_statuses.join(', ')}</strong></p>`
    : html`<p id="unmapped-statuses">Every status of the board's projects is shown by a column.</p>`;
  const body = html`<div class="card"><h1>Settings of ${settings.name}</h1>${unmapped}
${settingsForm(session, number, shown, { projectKeys: await projectKeys(deps, request, session), statuses, isAdmin: session.isAdmin })}
${columnActionsForm(session, number)}</div>
<div class="card"><h2>Delete this board</h2><p>Its columns and sprints are deleted with it; its tickets stay in their projects.</p>
${form(
  session,
  `/boards/${number}/delete`,
  html`${field({ name: 'confirm', label: `Yes, delete ${settings.name} with its columns and sprints`, type: 'checkbox', state: deleting })}
<div class="form-actions">${button('Delete board', { kind: 'danger' })}</div>`,
  { id: 'delete-board', plain: true, state: deleting },
)}</div>`;
  return sendMemberPage(
    request,
    reply,
    deps,
    session,
    {
      title: `Settings of ${settings.name}`,
      body,
      section: 'boards',
      crumbs: [{ label: 'Boards', href: '/boards' }, { label: settings.name, href: boardHref(number) }, { label: 'Settings' }],
    },
    status,
  );
}

/** Runs update_board with the body the form (or a column's button) made, and answers as the form does. */
async function saveSettings(
  reply: FastifyReply,
  deps: PagesDeps,
  post: PagePost,
  number: number,
  values: PagePost['values'],
  rows: readonly Row[],
  said: string,
) {
  const outcome = await runAsMember<BoardSettings>(deps, post, 'update_board', { params: { number }, body: settingsBody(values, rows) });
  if (!outcome.ok) {
    // a mistake goes back to the form; a refusal of the member (403, 404) is said on its own page
    if (outcome.error.status !== 422) return answerRefused(reply, deps, post, outcome.error);
    const state = refusedSettings(outcome.error, values, rows);
    return answerRefused(reply, deps, post, outcome.error, {
      page: (status) => showSettings(post.request, reply, deps, post.session, number, state, status),
    });
  }
  return answerDone(reply, deps, post, { to: `/boards/${number}/settings`, flash: { kind: 'success', text: said } });
}

/** A column's Move left, Move right or Remove: the stored settings with that one change, saved like the form. */
function columnChange(settings: BoardSettings, given: string): { rows: Row[]; said: string } | null {
  const match = /^(\d+):(left|right|remove)$/.exec(given);
  if (!match) return null;
  const at = Number(match[1]);
  const rows: Row[] = settings.columns.map((c) => c.index);
  const column = settings.columns[at];
  if (!column) return null;
  const name = column.name ?? `Column ${at + 1}`;
  if (match[2] === 'remove') return { rows: rows.filter((r) => r !== at), said: `Removed the column ${name}.` };
  const to = match[2] === 'left' ? at - 1 : at + 1;
  if (to < 0 || to >= rows.length) return null;
  [rows[at], rows[to]] = [rows[to]!, rows[at]!];
  return { rows, said: `Moved the column ${name} ${match[2]}.` };
}

/** /boards/new, /boards/:number/settings: board administration (spec 1, done in the browser), web-only operations. */
export function boardAdminRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/boards/new', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return reply;
    return showCreate(request, reply, deps, session, { ...EMPTY_FORM, values: { kind: 'scrum', swimlanes: 'none' } });
  });

  app.post('/boards/new', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const outcome = await runAsMember<BoardSettings>(deps, post, 'create_board', { body: settingsBody(post.values, null) });
    if (!outcome.ok) {
      const state = refusedSettings(outcome.error, post.values, []);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => showCreate(request, reply, deps, post.session, state, status),
      });
    }
    const board = outcome.value;
    return answerDone(reply, deps, post, {
      to: `/boards/${board.number}/settings`,
      flash: { kind: 'success', text: `Created board ${board.number}: ${board.name}. Set its columns here.` },
    });
  });

  app.get('/boards/:number/settings', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return reply;
    return showSettings(request, reply, deps, session, boardNumber(request), null);
  });

  app.post('/boards/:number/settings', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    return saveSettings(reply, deps, post, boardNumber(request), post.values, formRows(post.values), 'Saved the board.');
  });

  app.post('/boards/:number/settings/columns', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const number = boardNumber(request);
    const read = await runAsMember<BoardSettings>(deps, post, 'get_board_settings', { params: { number } });
    if (!read.ok) return answerRefused(reply, deps, post, read.error);
    const given = post.values.column;
    const change = columnChange(read.value, typeof given === 'string' ? given : '');
    if (!change) return showSettings(request, reply, deps, post.session, number, null, 422);
    return saveSettings(reply, deps, post, number, settingsValues(read.value), change.rows, change.said);
  });

  app.post('/boards/:number/delete', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const number = boardNumber(request);
    // deleting takes the board's sprints with it: the member says so first
    if (post.values.confirm !== 'on') {
      const deleting = { values: post.values, errors: { confirm: 'Tick this to delete the board.' }, problem: null };
      return showSettings(request, reply, deps, post.session, number, null, 422, deleting);
    }
    const outcome = await runAsMember<{ deleted: { number: number; name: string } }>(deps, post, 'delete_board', {
      params: { number },
    });
    if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
    const { deleted } = outcome.value;
    return answerDone(reply, deps, post, {
      to: '/boards',
      flash: { kind: 'success', text: `Deleted board ${deleted.number}: ${deleted.name}.` },
    });
  });
}
