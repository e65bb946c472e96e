import type { FastifyInstance } from 'fastify';
import type { Context } from '../../../core/context.ts';
import { ApiError } from '../../../core/errors.ts';
import { getBoard, listSprints } from '../../../modules/boards/index.ts';
import type { BoardDetail, SprintList } from '../../../modules/boards/index.ts';
import { html, type Html } from '../../html.ts';
import { personLink, projectLink, ticketLink } from '../../links.ts';
import { moduleOpen } from '../../module-gate.ts';
import { readContext } from '../../read-context.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { WebDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';
import { boardAdminLinks } from './admin/board-links.ts';
import { swimlaneView, type LaneView } from './admin/swimlanes.ts';

function limits(column: BoardDetail['columns'][number]): string {
  if (column.min === null && column.max === null) return '';
  return ` (${column.min ?? 0}–${column.max ?? '∞'})`;
}

/** The sprints of a scrum board as links: each shows that sprint's tickets; "All tickets" shows every one. */
function sprintPicker(number: number, board: BoardDetail, sprints: SprintList['sprints']): Html {
  const link = (label: string, value: string, current: boolean, state?: string) =>
    html`<li><a href="/boards/${number}?sprint=${encodeURIComponent(value)}"${current ? html` aria-current="page"` : ''}>${label}</a>${state ? html` <span class="muted">${state}</span>` : ''}</li>`;
  // no sprint shown (none asked for, or none active): the board shows every ticket
  const everything = board.sprint === null;
  return html`<nav aria-label="Sprints"><ul class="sprints" id="sprints">${sprints.map((s) => link(s.name, s.name, board.sprint?.id === s.id, s.state))}${link('All tickets', 'none', everything)}</ul></nav>`;
}

function boardBody(board: BoardDetail, picker: Html | '', lanes: LaneView | null = null): Html {
  const columnsOf = (shown: BoardDetail) =>
    shown.columns.map(
      (
        column,
      ) => html`<section class="card column"><h2>${column.name ?? `Column ${column.index}`}<span class="muted">${limits(column)}</span> <span class="muted">· ${String(column.tickets.length)}</span></h2>
<ul>${column.tickets.map((t) => html`<li class="board-card">${ticketLink(t.key)} ${t.summary}<br><span class="muted">${personLink(t.assignee, 'Unassigned')}</span></li>`)}</ul></section>`,
    );
  const notes = [
    board.sprint
      ? html`Sprint: <strong id="sprint-name">${board.sprint.name}</strong>${board.sprint.goal ? html` — ${board.sprint.goal}` : ''}`
      : null,
    board.unmapped ? `${board.unmapped} in statuses no column shows` : null,
    board.hidden_done ? `${board.hidden_done} done tickets hidden after ${board.done_retention_days} days` : null,
  ].filter((note) => note !== null);
  return html`<div class="card"><h1 id="board-name">${board.name}</h1><p class="muted">${board.kind} board · ${board.projects.map((key, i) => html`${i ? ', ' : ''}${projectLink(key)}`)}</p>
${notes.map((note) => html`<p>${note}</p>`)}${picker}</div>
${lanes ? lanes(board, columnsOf) : html`<div class="board" id="columns">${columnsOf(board)}</div>`}`;
}

async function sprintsOf(ctx: Context, number: number, board: BoardDetail): Promise<SprintList['sprints']> {
  // a kanban board has no sprints; with the sprints module off there are none to pick either
  if (board.kind !== 'scrum' || !ctx.settings.modules.sprints) return [];
  return (await listSprints(ctx, number)).sprints.filter((s) => s.state !== 'closed' || s.id === board.sprint?.id);
}

/** /boards/:number[?sprint=<name or id|none>]: the read-only board page behind the same log-in (the `url` field of a board). */
export function boardRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/boards/:number', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return reply;
    const number = Number((request.params as { number: string }).number);
    if (!Number.isInteger(number) || number < 1)
      return memberErrorPage(reply, deps, session, 404, 'There is no board with this number.', [{ label: 'Boards', href: '/boards' }]);
    const given = (request.query as { sprint?: unknown }).sprint;
    const sprint = typeof given === 'string' && given.trim() !== '' ? given : undefined;
    try {
      const ctx = await readContext(deps, session, request.id, request.log);
      const board = await getBoard(ctx, number, sprint);
      const sprints = await sprintsOf(ctx, number, board);
      const picker = html`${sprints.length ? sprintPicker(number, board, sprints) : ''}${await boardAdminLinks(ctx, board)}`;
      return sendMemberPage(request, reply, deps, session, {
        title: board.name,
        body: boardBody(board, picker, await swimlaneView(ctx, board, request.query)),
        live: `board:${number}`,
        section: 'boards',
        crumbs: [{ label: 'Boards', href: '/boards' }, { label: board.name }],
      });
    } catch (error) {
      if (error instanceof ApiError && [403, 404, 422].includes(error.status)) {
        return memberErrorPage(reply, deps, session, error.status === 403 ? 403 : 404, error.message, [
          { label: 'Boards', href: '/boards' },
        ]);
      }
      throw error;
    }
  });
}
