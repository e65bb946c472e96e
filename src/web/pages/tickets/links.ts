import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LINK_RELATIONS, type TicketLinks } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type Outcome } from '../../actions.ts';
import { button, emptyState, field, form, table } from '../../components/index.ts';
import { formInput, refusedForm, type FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { ticketHref, ticketLink } from '../../links.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { sentState, type ShowTicketPage, type TicketView } from './ticket-view.ts';

const FORM = 'link';
const linksHref = (key: string) => `${ticketHref(key)}/links`;
const removeHref = (key: string) => `${ticketHref(key)}/links/remove`;
const target = '#links-section';

type Link = TicketLinks['links'][number];

interface Asking {
  request: FastifyRequest;
  session: Session;
}

/** Remove: a form of its own per link, posting the link as the ticket reads it to unlink_tickets. */
function removeForm(session: Session, key: string, link: Link): Html {
  const content = html`<input type="hidden" name="relation" value="${link.relation}"><input type="hidden" name="ticket" value="${link.ticket}">${button(
    'Remove',
    { kind: 'secondary', label: `Remove link: ${link.relation} ${link.ticket}` },
  )}`;
  return form(session, removeHref(key), content, { className: 'inline', target });
}

function addForm(session: Session, key: string, state: FormState | undefined): Html {
  const content = html`${field({
    name: 'relation',
    label: 'Relation',
    hint: `As this ticket reads it: ${key} blocks, or is blocked by, the other ticket.`,
    type: 'select',
    choices: LINK_RELATIONS.map((r) => ({ value: r, label: r })),
    state,
  })}
${field({ name: 'ticket', label: 'Ticket key', hint: 'The other ticket, like ATR-12.', state })}
<div class="form-actions">${button('Add link')}</div>`;
  return form(session, linksHref(key), content, { id: 'link-form', target, state, label: 'Link to another ticket' });
}

function linksCard(session: Session, links: TicketLinks, state: FormState | undefined): Html {
  const columns = [
    { header: 'Relation', cell: (l: Link) => l.relation },
    { header: 'Ticket', cell: (l: Link) => ticketLink(l.ticket) },
    { header: 'Summary', cell: (l: Link) => l.summary },
    { header: 'Status', cell: (l: Link) => l.status?.name ?? '—' },
    ...(links.may_edit ? [{ header: '', cell: (l: Link) => removeForm(session, links.key, l) }] : []),
  ];
  const listed = links.links.length
    ? table(columns, links.links, { id: 'links', caption: `Links of ${links.key}` })
    : emptyState(
        'links',
        'No links',
        links.may_edit ? 'Link this ticket to another below.' : 'This ticket is linked to no ticket you can see.',
      );
  return html`<section id="links-section" aria-labelledby="links-title"><h2 id="links-title">Links</h2>
${listed}
${links.may_edit ? addForm(session, links.key, state) : ''}</section>`;
}

async function readLinks(deps: PagesDeps, asking: Asking, key: string): Promise<Outcome<TicketLinks>> {
  return runAsMember<TicketLinks>(deps, asking, 'list_ticket_links', { params: { key } });
}

/** The ticket page's Links: the links the member can see (list_ticket_links), each removable, and the form that adds one. */
export async function linksSection(view: TicketView): Promise<Html> {
  const read = await readLinks(view.deps, view, view.ticket.key);
  return read.ok ? linksCard(view.session, read.value, sentState(view, FORM)) : html``;
}

/**
 * Add link and Remove: link_tickets and unlink_tickets (web-only), answered with the section as it
 * now is. A refused link comes back at its field with what was typed; a refused removal is said
 * where the member is.
 */
export function linkRoutes(app: FastifyInstance, deps: PagesDeps, showPage: ShowTicketPage): void {
  for (const adding of [true, false]) {
    app.post(adding ? '/browse/:key/links' : '/browse/:key/links/remove', async (request, reply) => {
      const post = await acceptPost(request, reply, deps);
      if (!post) return reply;
      const { key } = request.params as { key: string };
      const name = adding ? 'link_tickets' : 'unlink_tickets';
      const body = formInput(deps.registry.byName.get(name)!.body!, post.values);
      const outcome = await runAsMember<TicketLinks>(deps, post, name, { params: { key }, body });
      if (!outcome.ok) {
        const state = refusedForm(outcome.error, post.values, ['relation', 'ticket']);
        // a refused removal has no form to come back to; nor has a member who may not link (403)
        if (!adding || outcome.error.status === 403) return answerRefused(reply, deps, post, outcome.error);
        return answerRefused(reply, deps, post, outcome.error, {
          page: (status) => showPage(request, reply, post.session, key, { name: FORM, state }, status),
          fragment: async () => {
            const read = await readLinks(deps, post, key);
            return read.ok ? linksCard(post.session, read.value, state) : html``;
          },
        });
      }
      const links = outcome.value;
      const other = String(body.ticket ?? '').toUpperCase();
      return answerDone(reply, deps, post, {
        to: `${ticketHref(links.key)}#links-section`,
        flash: {
          kind: 'success',
          text: adding
            ? `${links.key} now ${String(body.relation)} ${other}.`
            : `${links.key} no longer ${String(body.relation)} ${other}.`,
        },
        fragment: () => linksCard(post.session, links, undefined),
      });
    });
  }
}
