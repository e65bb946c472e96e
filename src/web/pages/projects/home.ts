import type { FastifyInstance } from 'fastify';
import { listBoards } from '../../../modules/boards/index.ts';
import { visibleProjects } from '../../../modules/projects/index.ts';
import { searchTickets } from '../../../modules/tickets/index.ts';
import { html } from '../../html.ts';
import { boardLink, projectLink } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { emptyState, linkButton } from '../../components/index.ts';
import { sendMemberPage } from '../../respond.ts';
import { currentSession, type WebDeps } from '../../session.ts';
import { ticketList } from '../../ticket-list.ts';

const ASSIGNED_SHOWN = 50;

/**
 * `/`: where a member starts — the projects they can see, the boards drawing from them, and the
 * open tickets assigned to them — read through the same functions as GET /projects, GET /boards
 * and GET /tickets?assignee=me&status=open. A stranger is sent to log in.
 */
export function homeRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/', async (request, reply) => {
    const session = await currentSession(request, deps);
    if (!session) return reply.redirect('/login', 303);
    const ctx = await readContext(deps, session, request.id, request.log);
    const [projects, boards, assigned] = await Promise.all([
      visibleProjects(ctx),
      // with the boards module switched off there are no boards to go to
      ctx.settings.modules.boards ? listBoards(ctx) : Promise.resolve([]),
      searchTickets(ctx, { assignee: 'me', status: 'open', sort: 'updated', limit: ASSIGNED_SHOWN }),
    ]);
    const body = html`<div class="card"><h1>Hello, ${session.name}</h1>
<p>${linkButton('Create a ticket', '/tickets/new', 'primary')}</p>
<h2>Assigned to you</h2>
${ticketList(assigned, 'assigned', 'No open tickets are assigned to you.', false)}</div>
<div class="card"><h2>Projects</h2>
${
  projects.length
    ? html`<ul class="tickets" id="projects">${projects.map((p) => html`<li>${projectLink(p.key, `${p.key} · ${p.name}`)} <span class="muted">${p.kind}${p.description ? ` · ${p.description}` : ''}</span></li>`)}</ul>`
    : emptyState(
        'projects-none',
        'You are in no project yet.',
        'An administrator adds you to one; its tickets and boards then appear here.',
      )
}</div>
${
  ctx.settings.modules.boards
    ? html`<div class="card"><h2>Boards</h2>${
        boards.length
          ? html`<ul class="tickets" id="boards">${boards.map((b) => html`<li>${boardLink(b.number, b.name)} <span class="muted">${b.kind} · ${b.projects.join(', ')}</span></li>`)}</ul>`
          : emptyState('boards-none', 'No board draws from your projects.')
      }</div>`
    : ''
}`;
    return sendMemberPage(request, reply, deps, session, { title: 'Home', body, section: 'home' });
  });
}
