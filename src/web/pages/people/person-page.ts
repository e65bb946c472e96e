import { isUuid } from '../../../core/schema-kit.ts';
import type { FastifyInstance } from 'fastify';
import { membersNamed } from '../../../core/people.ts';
import { searchTickets } from '../../../modules/tickets/index.ts';
import { html } from '../../html.ts';
import { readContext } from '../../read-context.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { WebDeps } from '../../session.ts';
import { ticketList } from '../../ticket-list.ts';
import { requireSession } from '../../require-session.ts';

const SHOWN = 50;

/**
 * /people/:id: where a person's name on a page leads — the open tickets assigned to them that the
 * reader can see (GET /tickets?assignee=<id>&status=open). People carry no email address (spec 2.3).
 */
export function personRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/people/:id', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { id } = request.params as { id: string };
    const ctx = await readContext(deps, session, request.id, request.log);
    const person = isUuid(id) ? (await membersNamed(ctx, id, false)).find((m) => m.id === id.toLowerCase()) : undefined;
    if (!person) return memberErrorPage(reply, deps, session, 404, 'There is no such person in this workspace.');
    const open = await searchTickets(ctx, { assignee: person.id, status: 'open', sort: 'updated', limit: SHOWN });
    const body = html`<div class="card"><h1 id="person-name">${person.name}</h1>
<h2>Open tickets assigned to ${person.id === session.memberId ? 'you' : person.name}</h2>
${ticketList(open, 'assigned', 'None that you can see.', false)}</div>`;
    return sendMemberPage(request, reply, deps, session, {
      title: person.name,
      body,
      crumbs: [{ label: 'People' }, { label: person.name }],
    });
  });
}
