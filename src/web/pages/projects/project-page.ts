import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import { listBoards } from '../../../modules/boards/index.ts';
import { describeProject } from '../../../modules/projects/index.ts';
import { searchTickets } from '../../../modules/tickets/index.ts';
import { html } from '../../html.ts';
import { boardLink, requestTypesHref } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { linkButton } from '../../components/index.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { WebDeps } from '../../session.ts';
import { ticketList } from '../../ticket-list.ts';
import { requireSession } from '../../require-session.ts';

const SHOWN = 50;

/** /projects/:key: a project the member can see — its boards and its open tickets (GET /projects/{key}, /boards, /tickets). */
export function projectRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/projects/:key', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key } = request.params as { key: string };
    try {
      const ctx = await readContext(deps, session, request.id, request.log);
      const project = await describeProject(ctx, key);
      const [boards, open] = await Promise.all([
        ctx.settings.modules.boards ? listBoards(ctx) : Promise.resolve([]),
        searchTickets(ctx, { project: project.key, status: 'open', sort: 'updated', limit: SHOWN }),
      ]);
      const mine = boards.filter((b) => b.projects.includes(project.key));
      const body = html`<div class="card"><h1><span id="project-key">${project.key}</span> ${project.name}</h1>
<p class="muted">${project.kind} project</p><p>${linkButton('Create a ticket here', `/tickets/new?project=${encodeURIComponent(project.key)}`)}${
        project.kind === 'helpdesk' && ctx.settings.modules.helpdesk
          ? html` ${linkButton('Request types', requestTypesHref(project.key))}`
          : ''
      }</p>${project.description ? html`<p>${project.description}</p>` : ''}
${mine.length ? html`<p>Boards: ${mine.map((b, i) => html`${i ? ', ' : ''}${boardLink(b.number, b.name)}`)}</p>` : ''}</div>
<div class="card"><h2>Open tickets</h2>${ticketList(open, 'open-tickets', 'No open tickets.')}</div>`;
      return sendMemberPage(request, reply, deps, session, {
        title: `${project.key} ${project.name}`,
        body,
        section: 'home',
        crumbs: [{ label: project.key }],
      });
    } catch (error) {
      if (error instanceof ApiError && [403, 404, 422].includes(error.status))
        return memberErrorPage(reply, deps, session, 404, error.message);
      throw error;
    }
  });
}
