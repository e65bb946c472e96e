import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import { getBoard, listBoards, type Backlog } from '../../../modules/boards/index.ts';
import { runAsMember } from '../../actions.ts';
import type { Crumb } from '../../components/index.ts';
import { html } from '../../html.ts';
import { ticketLink } from '../../links.ts';
import { moduleOpen } from '../../module-gate.ts';
import { readContext } from '../../read-context.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import { requireSession } from '../../require-session.ts';
import type { PagesDeps, Session, WebDeps } from '../../session.ts';
import { backlogHref, backlogMenu } from './backlog-page.ts';
import { boardAddress, boardMenu, boardNumber, sprintView } from './board-page.ts';
import { moveForm, type MoveMenu } from './move-menu.ts';

const BOARDS: Crumb = { label: 'Boards', href: '/boards' };

/** One card's "Move to…" as it stands: where it can go, and the page it came from. */
interface CardMenu {
  key: string;
  summary: string;
  menu: MoveMenu;
  /** The card's own list among the menu's. */
  current: number;
  /** The page (board or backlog) the move comes back to. */
  back: { label: string; href: string };
  crumbs: readonly Crumb[];
}

const queryKey = (query: unknown): string | null => {
  const key = (query as { key?: unknown }).key;
  return typeof key === 'string' && key.trim() !== '' ? key.trim() : null;
};

/**
 * The form alone for htmx (it takes the link's place on the card), or as a page of its own
 * without script: the same form, posting to the same action, which comes back to the board.
 */
function answerMenu(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: WebDeps,
  session: Session,
  card: CardMenu,
): Promise<FastifyReply> | FastifyReply {
  const form = moveForm(card.menu, card.key, card.current);
  if (request.headers['hx-request'] === 'true') return reply.type('text/html; charset=utf-8').send(form.value);
  const title = `Move ${card.key}`;
  const body = html`<div class="card"><h1>${title}</h1><p>${ticketLink(card.key)} ${card.summary}</p>${
    form.value === '' ? html`<p class="muted">There is no other place for it.</p>` : form
  }<p><a href="${card.back.href}">${card.back.label}</a></p></div>`;
  return sendMemberPage(request, reply, deps, session, { title, body, section: 'boards', crumbs: [...card.crumbs, { label: title }] });
}

/** Where the card is among the lists, or -1 when it is on none the member sees. */
const listOfCard = (menu: MoveMenu, key: string) => menu.lists.findIndex((list) => list.keys.includes(key));

/**
 * GET /boards/:number/moves/new?key=…[&sprint=…] and /boards/:number/backlog/moves/new?key=…:
 * a card's "Move to…" form, brought when asked rather than carried by every card. A board the
 * member cannot see, or a card not on it as they see it, answers as the board page would.
 */
export function movePageRoutes(app: FastifyInstance, deps: PagesDeps & WebDeps): void {
  /** The session and the board's number, or null once the refusal is sent. */
  async function opening(request: FastifyRequest, reply: FastifyReply): Promise<{ session: Session; number: number; key: string } | null> {
    const session = await requireSession(request, reply, deps);
    if (!session) return null;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return null;
    const number = boardNumber(request.params);
    const key = queryKey(request.query);
    if (number === null || key === null) {
      await memberErrorPage(reply, deps, session, 404, number === null ? 'There is no board with this number.' : 'Choose a card to move.', [
        BOARDS,
      ]);
      return null;
    }
    return { session, number, key };
  }

  const notOnIt = (reply: FastifyReply, session: Session, key: string, where: string) =>
    memberErrorPage(reply, deps, session, 404, `${key} is not on this ${where}.`, [BOARDS]);

  app.get('/boards/:number/moves/new', async (request, reply) => {
    const open = await opening(request, reply);
    if (!open) return reply;
    const { session, number, key } = open;
    const view = sprintView((request.query as { sprint?: unknown }).sprint);
    try {
      const board = await getBoard(await readContext(deps, session, request.id, request.log), number, view);
      const menu = boardMenu(session, number, board, view);
      const current = listOfCard(menu, key);
      const ticket = board.columns[current]?.tickets.find((t) => t.key === key);
      if (!ticket) return notOnIt(reply, session, key, 'board');
      const back = boardAddress(number, view);
      return answerMenu(request, reply, deps, session, {
        key,
        summary: ticket.summary,
        menu,
        current,
        back: { label: 'Back to the board', href: back },
        crumbs: [BOARDS, { label: board.name, href: back }],
      });
    } catch (error) {
      // as the board page answers: one the member cannot see is 403 or 404, an unknown sprint 404
      if (error instanceof ApiError && [403, 404, 422].includes(error.status)) {
        return memberErrorPage(reply, deps, session, error.status === 403 ? 403 : 404, error.message, [BOARDS]);
      }
      throw error;
    }
  });

  app.get('/boards/:number/backlog/moves/new', async (request, reply) => {
    const open = await opening(request, reply);
    if (!open) return reply;
    const { session, number, key } = open;
    const backlog = await runAsMember<Backlog>(deps, { request, session }, 'get_backlog', { params: { number } });
    if (!backlog.ok) {
      return memberErrorPage(reply, deps, session, backlog.error.status === 403 ? 403 : 404, backlog.error.message, [BOARDS]);
    }
    const menu = backlogMenu(session, number, backlog.value);
    const current = listOfCard(menu, key);
    const tickets = [...backlog.value.sprints.flatMap((s) => s.tickets), ...backlog.value.backlog];
    const ticket = current < 0 ? undefined : tickets.find((t) => t.key === key);
    if (!ticket) return notOnIt(reply, session, key, 'backlog');
    const boards = await listBoards(await readContext(deps, session, request.id, request.log));
    const name = boards.find((b) => b.number === number)?.name ?? `Board ${number}`;
    return answerMenu(request, reply, deps, session, {
      key,
      summary: ticket.summary,
      menu,
      current,
      back: { label: 'Back to the backlog', href: backlogHref(number) },
      crumbs: [BOARDS, { label: name, href: `/boards/${number}` }, { label: 'Backlog', href: backlogHref(number) }],
    });
  });
}
