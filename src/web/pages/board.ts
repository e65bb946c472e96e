import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { getBoard } from '../../modules/boards/index.ts';
import type { BoardDetail } from '../../modules/boards/index.ts';
import { html, type Html } from '../html.ts';
import { layout } from '../layout.ts';
import { readContext } from '../read-context.ts';
import { errorPage, sendPage, viewerOf } from '../respond.ts';
import type { WebDeps } from '../session.ts';
import { requireSession } from './guard.ts';

function limits(column: BoardDetail['columns'][number]): string {
  if (column.min === null && column.max === null) return '';
  return ` (${column.min ?? 0}–${column.max ?? '∞'})`;
}

function boardBody(board: BoardDetail): Html {
  const columns = board.columns.map(
    (column) => html`<section class="card column"><h2>${column.name ?? `Column ${column.index}`}<span class="muted">${limits(column)}</span></h2>
<ul>${column.tickets.map((t) => html`<li class="board-card"><a href="/browse/${t.key}">${t.key}</a> ${t.summary}<br><span class="muted">${t.assignee?.name ?? 'Unassigned'}</span></li>`)}</ul></section>`,
  );
  const notes = [
    board.sprint ? `Sprint: ${board.sprint.name}` : null,
    board.unmapped ? `${board.unmapped} in statuses no column shows` : null,
    board.hidden_done ? `${board.hidden_done} done tickets hidden after ${board.done_retention_days} days` : null,
  ].filter((note): note is string => note !== null);
  return html`<div class="card"><h1 id="board-name">${board.name}</h1><p class="muted">${board.kind} board · ${board.projects.join(', ')}</p>
${notes.map((note) => html`<p>${note}</p>`)}</div>
${columns}`;
}

/** /boards/:number: the read-only board page behind the same log-in (the `url` field of a board). */
export function boardRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/boards/:number', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const number = Number((request.params as { number: string }).number);
    if (!Number.isInteger(number) || number < 1) return errorPage(reply, 404, 'No such board', viewerOf(session));
    try {
      const board = await getBoard(await readContext(deps, session, request.id, request.log), number);
      return sendPage(reply, layout(board.name, boardBody(board), viewerOf(session), `board:${number}`));
    } catch (error) {
      if (error instanceof ApiError && [403, 404, 422].includes(error.status)) {
        return errorPage(reply, error.status === 403 ? 403 : 404, error.message, viewerOf(session));
      }
      throw error;
    }
  });
}
