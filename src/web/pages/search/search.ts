import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { listBoards } from '../../../modules/boards/index.ts';
import type { ContactList } from '../../../modules/crm/index.ts';
import type { PageSearchResult } from '../../../modules/knowledge/index.ts';
import type { TicketSearchResult } from '../../../modules/tickets/index.ts';
import { readSettings } from '../../../core/settings.ts';
import { runAsMember, type Outcome } from '../../actions.ts';
import { emptyState } from '../../components/index.ts';
import { html, type Html } from '../../html.ts';
import { boardHref, contactHref, pageHref, ticketHref } from '../../links.ts';
import { usableModules, type ModuleSection } from '../../navigation.ts';
import { readContext } from '../../read-context.ts';
import { sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

const SHOWN = 20;
const IN_PALETTE = 5;

interface Found {
  tickets: TicketSearchResult['tickets'];
  pages: PageSearchResult['pages'];
  contacts: ContactList['contacts'];
  usable: ReadonlySet<ModuleSection>;
}

const valueOr = <T, E>(outcome: Outcome<T>, empty: E): T | E => (outcome.ok ? outcome.value : empty);

/**
 * The words searched through the modules' own search operations, so each finds exactly what the
 * API would show the member: tickets (search_tickets), knowledge pages (search_pages) where the
 * knowledge base is on, contacts (search_contacts) for members who may see the CRM.
 */
async function searchEverything(deps: PagesDeps, request: FastifyRequest, session: Session, q: string, limit: number): Promise<Found> {
  const usable = await usableModules(deps.db, await readSettings(deps.db), session);
  const as = { request, session };
  const [tickets, pages, contacts] = await Promise.all([
    runAsMember<TicketSearchResult>(deps, as, 'search_tickets', { query: { query: q, limit: String(limit) } }),
    usable.has('knowledge') ? runAsMember<PageSearchResult>(deps, as, 'search_pages', { query: { query: q, limit: String(limit) } }) : null,
    usable.has('crm') ? runAsMember<ContactList>(deps, as, 'search_contacts', { query: { q, limit: String(limit) } }) : null,
  ]);
  return {
    tickets: valueOr(tickets, { tickets: [] }).tickets,
    pages: pages ? valueOr(pages, { pages: [] }).pages : [],
    contacts: contacts ? valueOr(contacts, { contacts: [] }).contacts : [],
    usable,
  };
}

function section(title: string, id: string, items: readonly Html[], none: string): Html {
  return html`<section class="card" aria-labelledby="${id}-title"><h2 id="${id}-title">${title}</h2>${
    items.length ? html`<ul class="results" id="${id}">${items.map((item) => html`<li>${item}</li>`)}</ul>` : emptyState(`${id}-none`, none)
  }</section>`;
}

/** /search?q=: the header's search box (and the palette's Enter with nothing picked). */
export function searchRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/search', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const q = String((request.query as { q?: unknown }).q ?? '')
      .trim()
      .slice(0, 500);
    const crumbs = [{ label: 'Search' }];
    if (!q) {
      const body = html`<div class="card"><h1>Search</h1>${emptyState('search-empty', 'Type words in the search box at the top of the page.', 'Tickets, knowledge pages and — if you work with the CRM — contacts are searched.')}</div>`;
      return sendMemberPage(request, reply, deps, session, { title: 'Search', body, crumbs });
    }
    const found = await searchEverything(deps, request, session, q, SHOWN);
    const body = html`<div class="card"><h1>Search for “${q}”</h1><p><a href="/tickets?query=${encodeURIComponent(q)}">Search tickets with filters</a></p></div>
${section(
  'Tickets',
  'found-tickets',
  found.tickets.map(
    (t) => html`<a href="${ticketHref(t.key)}">${t.key}</a> ${t.summary} <span class="muted">${t.status?.name ?? ''}</span>`,
  ),
  'No ticket you can see matches.',
)}
${
  found.usable.has('knowledge')
    ? section(
        'Knowledge pages',
        'found-pages',
        found.pages.map(
          (p) =>
            html`<a href="${pageHref(p.space, p.slug)}">${p.title}</a> <span class="muted">${p.space}</span>${p.passage ? html`<br><span class="muted">${p.passage}</span>` : ''}`,
        ),
        'No page you may read matches.',
      )
    : ''
}
${
  found.usable.has('crm')
    ? section(
        'Contacts',
        'found-contacts',
        found.contacts.map(
          (c) => html`<a href="${contactHref(c.id)}">${c.name}</a>${c.company ? html` <span class="muted">${c.company.name}</span>` : ''}`,
        ),
        'No contact matches.',
      )
    : ''
}`;
    return sendMemberPage(request, reply, deps, session, { title: `Search for ${q}`, body, crumbs, query: q });
  });

  /** The palette's results as it is typed in: places to go, then what to create (a fragment). */
  app.get('/palette', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const q = String((request.query as { q?: unknown }).q ?? '')
      .trim()
      .slice(0, 200);
    const items: Html[] = [];
    const item = (kind: string, href: string, label: Html | string) =>
      items.push(html`<li><a href="${href}"><span class="kind">${kind}</span> ${label}</a></li>`);
    if (q) {
      const found = await searchEverything(deps, request, session, q, IN_PALETTE);
      for (const t of found.tickets) item('Ticket', ticketHref(t.key), `${t.key} ${t.summary}`);
      if (found.usable.has('boards')) {
        const words = q.toLowerCase();
        const boards = await listBoards(await readContext(deps, session, request.id, request.log));
        for (const b of boards.filter((b) => b.name.toLowerCase().includes(words) || String(b.number) === words).slice(0, IN_PALETTE))
          item('Board', boardHref(b.number), b.name);
      }
      for (const p of found.pages) item('Page', pageHref(p.space, p.slug), p.title);
      const like = q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
      const { rows: people } = await sql<{ id: string; name: string }>`
        select id, display_name as name from members
        where active and (lower(display_name) like ${`${like}%`} or lower(display_name) like ${`% ${like}%`})
        order by display_name limit ${IN_PALETTE}
      `.execute(deps.db);
      for (const person of people) item('Person', `/people/${person.id}`, person.name);
      for (const c of found.contacts) item('Contact', contactHref(c.id), c.name);
    }
    item('Create', '/tickets/new', 'Create a ticket');
    if (q) item('Search', `/search?q=${encodeURIComponent(q)}`, `Search everything for “${q}”`);
    return reply.type('text/html; charset=utf-8').send(html`${items}`.value);
  });
}
