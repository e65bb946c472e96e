import type { FastifyInstance } from 'fastify';
import { listBoards } from '../../../modules/boards/index.ts';
import { emptyState, table } from '../../components/index.ts';
import { html } from '../../html.ts';
import { boardLink, projectLink } from '../../links.ts';
import { moduleOpen } from '../../module-gate.ts';
import { readContext } from '../../read-context.ts';
import { sendMemberPage } from '../../respond.ts';
import type { PagesDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

/** /boards: the boards drawing from projects the member can see (GET /boards), each a link. */
export function boardListRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/boards', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return reply;
    const boards = await listBoards(await readContext(deps, session, request.id, request.log));
    const body = html`<div class="card"><h1>Boards</h1><p><a href="/boards/new">Create a board</a></p>${
      boards.length
        ? table(
            [
              { header: 'Board', cell: (b) => boardLink(b.number, b.name) },
              { header: 'Kind', cell: (b) => b.kind },
              { header: 'Projects', cell: (b) => html`${b.projects.map((key, i) => html`${i ? ', ' : ''}${projectLink(key)}`)}` },
            ],
            boards,
            { id: 'boards', caption: 'Boards' },
          )
        : emptyState('boards-none', 'No board draws from your projects.', 'A board shows the tickets of the projects it draws from.')
    }</div>`;
    return sendMemberPage(request, reply, deps, session, { title: 'Boards', body, section: 'boards', crumbs: [{ label: 'Boards' }] });
  });
}
