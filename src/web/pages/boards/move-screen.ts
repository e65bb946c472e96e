import type { Context } from '../../../core/context.ts';
import { ApiError } from '../../../core/errors.ts';
import { getBoard } from '../../../modules/boards/index.ts';
import { describeProject } from '../../../modules/projects/index.ts';
import { loadVisibleTicket, transitionInto, type TransitionChoice } from '../../../modules/tickets/index.ts';
import { button, dialog, field, form } from '../../components/index.ts';
import { fieldLabel } from '../../format.ts';
import type { FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import type { Session } from '../../session.ts';
import { columnName } from './board-page.ts';

/** A card move as the page posts it: the card, its column, and the neighbour it goes beside. */
export interface CardMove {
  key: string;
  column: string;
  before?: string;
  after?: string;
}

/** What the transition screen of a move shows: the transition taken, and what it asks for. */
export interface MoveScreen {
  move: CardMove;
  view: string | undefined;
  board: string;
  column: string;
  transition: TransitionChoice;
  resolutions: readonly string[];
}

/**
 * A refusal that the transition's screen answers: the move's transition asks for a resolution or
 * fields that were not given (spec 4.3: nothing changed, 422 naming what it asks for).
 */
export function screenAnswers(error: ApiError): boolean {
  return error.code === 'invalid' && /^\/(resolution|fields\/)/.test(error.message);
}

/**
 * The screen of the transition a move into `move.column` takes, read as the member: the board's
 * column, the first transition the member may take there, and the project's resolutions. Null
 * when there is none any more (the workflow or the ticket changed): the refusal is said instead.
 */
export async function readMoveScreen(ctx: Context, number: number, view: string | undefined, move: CardMove): Promise<MoveScreen | null> {
  try {
    const board = await getBoard(ctx, number, view);
    const column = board.columns.find((c) => String(c.index) === move.column);
    if (!column) return null;
    const ticket = await loadVisibleTicket(ctx, move.key);
    const { transition } = await transitionInto(ctx, ticket, column.statuses);
    if (!transition) return null;
    const project = await describeProject(ctx, ticket.project_key);
    return { move, view, board: board.name, column: columnName(column), transition, resolutions: project.resolutions };
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** The names of the screen's fields, for a refusal's JSON pointer to find its field (`fields.<key>` for a custom field). */
export const screenFields = (screen: MoveScreen) => [
  'resolution',
  'comment',
  ...screen.transition.asks.fields.map((key) => `fields.${key}`),
];

function screenForm(session: Session, number: number, screen: MoveScreen, state: FormState): Html {
  const { move, transition } = screen;
  const hidden = { key: move.key, column: move.column, before: move.before, after: move.after, view: screen.view, screen: 'yes' };
  const asks = transition.asks;
  const content = html`${Object.entries(hidden).map(([name, value]) =>
    value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}">`,
  )}${
    asks.resolution
      ? field({
          name: 'resolution',
          label: 'Resolution',
          type: 'select',
          choices: [{ value: '', label: 'Choose a resolution' }, ...screen.resolutions.map((r) => ({ value: r, label: r }))],
          state,
        })
      : ''
  }${asks.fields.map((key) => field({ name: `fields.${key}`, label: fieldLabel(key), state }))}${field({
    name: 'comment',
    label: 'Comment',
    type: 'textarea',
    optional: true,
    hint: 'Markdown; added to the ticket with the move.',
    state,
  })}<div class="form-actions">${button(`Move to ${screen.column}`)}</div>`;
  // a plain form: the move done, the board is drawn again with the card where it went
  return form(session, `/boards/${number}/moves`, content, { id: 'move-screen-form', plain: true, state });
}

const lead = (screen: MoveScreen) =>
  html`<p>Moving ${screen.move.key} to ${screen.column} takes the transition <strong>${screen.transition.name}</strong>, which asks for what follows. Nothing has changed yet.</p>`;

export const screenTitle = (screen: MoveScreen) => `Move ${screen.move.key} to ${screen.column}`;

/** The screen as a dialog: what a drop opens (drag.js shows it). */
export function moveScreenDialog(session: Session, number: number, screen: MoveScreen, state: FormState): Html {
  return dialog('move-screen', screenTitle(screen), html`${lead(screen)}${screenForm(session, number, screen, state)}`);
}

/** The screen as a page: what "Move to…" leads to without script. */
export function moveScreenBody(session: Session, number: number, screen: MoveScreen, state: FormState, back: string): Html {
  return html`<div class="card"><h1>${screenTitle(screen)}</h1>${lead(screen)}${screenForm(session, number, screen, state)}<p><a href="${back}">Back to the board</a> (the card stays where it is)</p></div>`;
}
