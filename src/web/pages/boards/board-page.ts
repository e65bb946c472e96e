import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../../core/context.ts';
import { ApiError } from '../../../core/errors.ts';
import { getBoard, listSprints } from '../../../modules/boards/index.ts';
import type { BoardDetail, SprintList } from '../../../modules/boards/index.ts';
import type { Flash } from '../../components/index.ts';
import { html, type Html } from '../../html.ts';
import { personLink, projectLink, ticketLink } from '../../links.ts';
import { moduleOpen } from '../../module-gate.ts';
import { readContext } from '../../read-context.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import { formToken, type Session, type WebDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';
import { boardAdminLinks } from './admin/board-links.ts';
import { swimlaneView, type LaneView } from './admin/swimlanes.ts';
import { canGo, moveLink, type MoveMenu } from './move-menu.ts';
import { wipLine, wipState } from './wip.ts';

/** The sprints of a scrum board as links: each shows that sprint's tickets; "All tickets" shows every one. */
function sprintPicker(number: number, board: BoardDetail, sprints: SprintList['sprints']): Html {
  const link = (label: string, value: string, current: boolean, state?: string) =>
    html`<li><a href="/boards/${number}?sprint=${encodeURIComponent(value)}"${current ? html` aria-current="page"` : ''}>${label}</a>${state ? html` <span class="muted">${state}</span>` : ''}</li>`;
  // no sprint shown (none asked for, or none active): the board shows every ticket
  const everything = board.sprint === null;
  return html`<nav aria-label="Sprints"><ul class="sprints" id="sprints">${sprints.map((s) => link(s.name, s.name, board.sprint?.id === s.id, s.state))}${link('All tickets', 'none', everything)}</ul></nav>`;
}

/** Where a board leads: each entry one page about this board (its backlog; its administration and reports). */
function boardLinks(number: number, board: BoardDetail, sprintsOn: boolean): Html {
  const links: Html[] = [];
  if (board.kind === 'scrum' && sprintsOn) links.push(html`<a href="/boards/${number}/backlog">Backlog and sprints</a>`);
  return links.length ? html`<ul class="board-links">${links.map((link) => html`<li>${link}</li>`)}</ul>` : html``;
}

export const columnName = (column: BoardDetail['columns'][number]) => column.name ?? `Column ${column.index}`;

/** The board's columns as drop targets (of a whole board, or of one swimlane's cards). */
function columnSections(board: BoardDetail, menu: MoveMenu): Html[] {
  const view = menu.hidden?.view;
  return board.columns.map((column, at) => {
    const heading = `column-${column.index}-name`;
    const go = canGo(menu.lists, at);
    const cards = column.tickets.map(
      (t) =>
        html`<li class="board-card" id="card-${t.key}" data-key="${t.key}">${ticketLink(t.key)} ${t.summary}<br><span class="muted">${personLink(t.assignee, 'Unassigned')}</span>${go ? moveLink(boardMoveHref(board.number, t.key, view), t.key) : ''}</li>`,
    );
    return html`<section class="card column wip-${wipState(column)}" aria-labelledby="${heading}"><h2 id="${heading}">${columnName(column)}</h2>${wipLine(column)}
<ul data-drop="board" data-field="column" data-value="${String(column.index)}" aria-labelledby="${heading}">${cards}</ul></section>`;
  });
}

/**
 * Where a drop posts, like a card's "Move to…": the board's moves, with the sprint the board shows
 * (data-keep-view → `view`) to come back to. Cards dragged from one swimlane to another change
 * column only: a lane is what the card is (its assignee, parent or priority), not a place.
 */
function movesAttributes(menu: MoveMenu): Html {
  const view = menu.hidden?.view;
  return html` data-moves="${menu.action}" data-csrf="${menu.csrf}"${view === undefined ? '' : html` data-keep-view="${view}"`}`;
}

function columnsOf(board: BoardDetail, menu: MoveMenu, lanes: LaneView | null): Html {
  if (lanes) return html`<div class="board-moves"${movesAttributes(menu)}>${lanes(board, (part) => columnSections(part, menu))}</div>`;
  return html`<div class="board" id="columns"${movesAttributes(menu)}>${columnSections(board, menu)}</div>`;
}

function boardBody(board: BoardDetail, picker: Html | '', links: Html, menu: MoveMenu, lanes: LaneView | null): Html {
  const notes = [
    board.sprint
      ? html`Sprint: <strong id="sprint-name">${board.sprint.name}</strong>${board.sprint.goal ? html` — ${board.sprint.goal}` : ''}`
      : null,
    board.unmapped ? `${board.unmapped} in statuses no column shows` : null,
    board.hidden_done ? `${board.hidden_done} done tickets hidden after ${board.done_retention_days} days` : null,
  ].filter((note) => note !== null);
  return html`<div class="card"><h1 id="board-name">${board.name}</h1><p class="muted">${board.kind} board · ${board.projects.map((key, i) => html`${i ? ', ' : ''}${projectLink(key)}`)}</p>
${notes.map((note) => html`<p>${note}</p>`)}${picker}${links}<p class="muted">Drag a card to another column or place, or use its “Move to…”.</p></div>
${columnsOf(board, menu, lanes)}`;
}

async function sprintsOf(ctx: Context, number: number, board: BoardDetail): Promise<SprintList['sprints']> {
  // a kanban board has no sprints; with the sprints module off there are none to pick either
  if (board.kind !== 'scrum' || !ctx.settings.modules.sprints) return [];
  return (await listSprints(ctx, number)).sprints.filter((s) => s.state !== 'closed' || s.id === board.sprint?.id);
}

/** `?sprint=` as the board reads it: a name or id, `none`, or left out. */
export function sprintView(given: unknown): string | undefined {
  return typeof given === 'string' && given.trim() !== '' ? given : undefined;
}

/** The page of one card's "Move to…" form on the board (with the sprint the board shows, to come back to). */
export function boardMoveHref(number: number, key: string, view: string | undefined): string {
  return `/boards/${number}/moves/new?key=${encodeURIComponent(key)}${view === undefined ? '' : `&sprint=${encodeURIComponent(view)}`}`;
}

/** Where a board's cards can go, and where their "Move to…" posts: the same for every card, made once per page. */
export function boardMenu(session: Session, number: number, board: BoardDetail, view: string | undefined): MoveMenu {
  const action = `/boards/${number}/moves`;
  return {
    action,
    csrf: formToken(session, action),
    lists: board.columns.map((c) => ({ value: String(c.index), name: columnName(c), keys: c.tickets.map((t) => t.key) })),
    hidden: view === undefined ? {} : { view },
  };
}

export function boardAddress(number: number, view: string | undefined): string {
  return view === undefined ? `/boards/${number}` : `/boards/${number}?sprint=${encodeURIComponent(view)}`;
}

/** The board page, also drawn again by a refused move without script, with the reason at its top. */
export async function showBoard(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: WebDeps,
  session: Session,
  number: number,
  view: string | undefined,
  said: { flash?: Flash; status?: number } = {},
): Promise<FastifyReply> {
  try {
    const ctx = await readContext(deps, session, request.id, request.log);
    const board = await getBoard(ctx, number, view);
    const sprints = await sprintsOf(ctx, number, board);
    const picker = sprints.length ? sprintPicker(number, board, sprints) : '';
    const menu = boardMenu(session, number, board, view);
    return sendMemberPage(
      request,
      reply,
      deps,
      session,
      {
        title: board.name,
        body: boardBody(
          board,
          picker,
          html`${boardLinks(number, board, ctx.settings.modules.sprints)}${await boardAdminLinks(ctx, board)}`,
          menu,
          await swimlaneView(ctx, board, request.query),
        ),
        live: `board:${number}`,
        section: 'boards',
        scripts: ['sortable', 'drag'],
        crumbs: [{ label: 'Boards', href: '/boards' }, { label: board.name }],
        ...(said.flash ? { flash: said.flash } : {}),
      },
      said.status,
    );
  } catch (error) {
    if (error instanceof ApiError && [403, 404, 422].includes(error.status)) {
      return memberErrorPage(reply, deps, session, error.status === 403 ? 403 : 404, error.message, [{ label: 'Boards', href: '/boards' }]);
    }
    throw error;
  }
}

/** A board number from the path, or null for one that cannot be. */
export function boardNumber(params: unknown): number | null {
  const number = Number((params as { number: string }).number);
  return Number.isInteger(number) && number >= 1 ? number : null;
}

/** /boards/:number[?sprint=<name or id|none>]: the board page behind the same log-in (the `url` field of a board). */
export function boardRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/boards/:number', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return reply;
    const number = boardNumber(request.params);
    if (number === null)
      return memberErrorPage(reply, deps, session, 404, 'There is no board with this number.', [{ label: 'Boards', href: '/boards' }]);
    return showBoard(request, reply, deps, session, number, sprintView((request.query as { sprint?: unknown }).sprint));
  });
}
