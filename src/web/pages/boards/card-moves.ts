import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import type { Ticket } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../actions.ts';
import { EMPTY_FORM, refusedForm, type FormValues } from '../../forms.ts';
import { html } from '../../html.ts';
import { readContext } from '../../read-context.ts';
import { sendMemberPage } from '../../respond.ts';
import type { PagesDeps } from '../../session.ts';
import { boardAddress, boardNumber, showBoard, sprintView } from './board-page.ts';
import { readTarget } from './move-menu.ts';
import {
  moveScreenBody,
  moveScreenDialog,
  readMoveScreen,
  screenAnswers,
  screenFields,
  screenTitle,
  type CardMove,
} from './move-screen.ts';

const one = (values: FormValues, name: string): string | undefined => {
  const value = values[name];
  const text = typeof value === 'string' ? value : value?.[0];
  return text === undefined || text.trim() === '' ? undefined : text.trim();
};

/** The move a post names: a drop's `column` with `before`/`after`, or a "Move to…" select's `to`. */
function moveOf(values: FormValues): CardMove | null {
  const key = one(values, 'key');
  if (!key) return null;
  const to = one(values, 'to');
  const target = to === undefined ? null : readTarget(to);
  const column = target?.list ?? one(values, 'column');
  if (column === undefined) return null;
  const before = target ? target.before : one(values, 'before');
  const after = target ? target.after : one(values, 'after');
  return { key, column, ...(before ? { before } : {}), ...(after ? { after } : {}) };
}

/** What the transition's screen answered: a resolution, the fields it asks for (`fields.<key>`), a comment. */
function screenInput(values: FormValues): Record<string, unknown> {
  const fields: Record<string, string> = {};
  for (const name of Object.keys(values)) {
    const value = one(values, name);
    if (name.startsWith('fields.') && value !== undefined) fields[name.slice('fields.'.length)] = value;
  }
  const resolution = one(values, 'resolution');
  const comment = one(values, 'comment');
  return {
    ...(resolution ? { resolution } : {}),
    ...(comment ? { comment } : {}),
    ...(Object.keys(fields).length ? { fields } : {}),
  };
}

// a column given by its index is sent as the number the API takes; a name stays a name
const columnValue = (column: string) => (/^\d+$/.test(column) ? Number(column) : column);

/**
 * POST /boards/:number/moves: a card dropped in a column (drag.js), moved with its "Move to…", or
 * sent from its transition's screen — each the one operation move_card, one request per move.
 * Done: with script the reason is said in place (the card is already where it was dropped);
 * without, back to the board. A transition that asks for something opens its screen (a dialog
 * after a drop, a page without script); any other refusal leaves the card where it was and says why.
 */
export function cardMoveRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.post('/boards/:number/moves', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const number = boardNumber(request.params);
    if (number === null) return answerRefused(reply, deps, post, new ApiError('not_found', 'There is no board with this number.'));
    const view = sprintView(post.values.view);
    const move = moveOf(post.values);
    if (!move) return answerRefused(reply, deps, post, new ApiError('invalid', 'Choose a card and where to move it.'));
    const body = { ...move, column: columnValue(move.column), ...screenInput(post.values) };
    const outcome = await runAsMember<Ticket>(deps, post, 'move_card', { params: { number }, body });
    const back = boardAddress(number, view);
    if (outcome.ok) {
      const status = outcome.value.status?.name;
      return answerDone(reply, deps, post, {
        to: `${back}#card-${outcome.value.key}`,
        flash: { kind: 'success', text: `Moved ${outcome.value.key}${status ? `; its status is ${status}` : ''}.` },
        fragment: () => html``,
      });
    }
    const error = outcome.error;
    const fromScreen = one(post.values, 'screen') !== undefined;
    if (fromScreen || screenAnswers(error)) {
      const shown = await showScreen(reply, post, number, view, move, error, fromScreen);
      if (shown) return shown;
    }
    const reason = error.message.replace(/^\/[^:\s]*: /, '');
    return answerRefused(reply, deps, post, new ApiError(error.code, reason), {
      page: (status) => showBoard(request, reply, deps, post.session, number, view, { flash: { kind: 'error', text: reason }, status }),
    });
  });

  /** The transition's screen, asking for what the move's transition needs; null when there is none to show. */
  async function showScreen(
    reply: FastifyReply,
    post: PagePost,
    number: number,
    view: string | undefined,
    move: CardMove,
    error: ApiError,
    fromScreen: boolean,
  ): Promise<FastifyReply | null> {
    const { request, session } = post;
    // which transition the member may take there is read with the access the move itself runs with
    const ctx = await readContext(deps, session, request.id, request.log, 'write');
    const screen = await readMoveScreen(ctx, number, view, move);
    if (!screen) return null;
    // first asked: nothing is wrong yet, the member has only to answer; sent from the screen: the reason at its field
    const state = fromScreen ? refusedForm(error, post.values, screenFields(screen)) : EMPTY_FORM;
    return answerRefused(reply, deps, post, error, {
      fragment: () => moveScreenDialog(session, number, screen, state),
      page: (status) =>
        sendMemberPage(
          request,
          reply,
          deps,
          session,
          {
            title: screenTitle(screen),
            body: moveScreenBody(session, number, screen, state, boardAddress(number, view)),
            section: 'boards',
            crumbs: [
              { label: 'Boards', href: '/boards' },
              { label: screen.board, href: boardAddress(number, view) },
              { label: screenTitle(screen) },
            ],
          },
          status,
        ),
    });
  }
}
