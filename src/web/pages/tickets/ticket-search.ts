import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import { moduleOffReason } from '../../../core/settings.ts';
import { listBoards, listSprints } from '../../../modules/boards/index.ts';
import { describeProject, projectsByKey, projectStructure, visibleProjects } from '../../../modules/projects/index.ts';
import { workflowTransitionNames, type TicketSearchResult } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../actions.ts';
import type { Choice } from '../../components/field.ts';
import { emptyState, form, table, type Column, type Flash } from '../../components/index.ts';
import { leaveFlash, takeFlash, type ReportLine } from '../../flash.ts';
import { shownTime } from '../../format.ts';
import { EMPTY_FORM, refusedForm, type FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { personLink, ticketLink } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { requireSession } from '../../require-session.ts';
import { sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import {
  BULK_PATH,
  bulkActions,
  bulkReport,
  readBulkChange,
  reportFlash,
  runBulkChange,
  selectedKeys,
  type BulkChoices,
} from './bulk-change.ts';
import { FILTERS, filterForm, filterValues, readFilters, searchHref, type FilterChoices, type Filters } from './search-filters.ts';

type Summary = TicketSearchResult['tickets'][number];
type Asker = Pick<PagePost, 'request' | 'session'>;

/** A read the member may be refused (a project gone from their sight meanwhile): nothing to offer from it. */
const orNull = <T>(read: Promise<T>): Promise<T | null> =>
  read.catch((caught: unknown) => {
    if (caught instanceof ApiError) return null;
    throw caught;
  });

/** The member's projects and their ticket types, for the filters' choices (the same names the API resolves). */
async function filterChoices(deps: PagesDeps, asker: Asker): Promise<FilterChoices> {
  const ctx = await readContext(deps, asker.session, asker.request.id, asker.request.log);
  const projects = await visibleProjects(ctx);
  const keys = new Set(projects.map((p) => p.key));
  const rows = (await projectsByKey(ctx)).filter((p) => keys.has(p.key));
  const types = new Map<string, string>();
  for (const row of rows) for (const type of (await projectStructure(ctx, row.id)).ticket_types) types.set(type.toLowerCase(), type);
  return { projects, types: [...types.values()].sort((a, b) => a.localeCompare(b)) };
}

/**
 * What the bulk form offers for the tickets on the page: their workflows' transitions, the
 * people assignable in their projects, and the open sprints (and backlog) of the scrum boards
 * drawing from them — where the boards and sprints are on.
 */
async function bulkChoices(deps: PagesDeps, asker: Asker, tickets: readonly Summary[]): Promise<BulkChoices> {
  const ctx = await readContext(deps, asker.session, asker.request.id, asker.request.log);
  const keys = [...new Set(tickets.map((t) => t.project).filter((k): k is string => k !== null))];
  const [transitions, details] = await Promise.all([
    workflowTransitionNames(ctx, keys),
    Promise.all(keys.map((key) => orNull(describeProject(ctx, key)))),
  ]);
  const people = new Map<string, { id: string; name: string }>();
  for (const detail of details) for (const person of detail?.assignable_users ?? []) people.set(person.id, person);
  const sprints: Choice[] = [];
  if (moduleOffReason('sprints', ctx.settings) === null) {
    const boards = (await listBoards(ctx)).filter((b) => b.kind === 'scrum' && b.projects.some((p) => keys.includes(p)));
    for (const board of boards) {
      const listed = await listSprints(ctx, board.number);
      for (const sprint of listed.sprints.filter((s) => s.state !== 'closed'))
        sprints.push({ value: `${board.number}:${sprint.id}`, label: `${board.name}: ${sprint.name}` });
      sprints.push({ value: `${board.number}:backlog`, label: `${board.name}: Backlog` });
    }
  }
  return { transitions, people: [...people.values()].sort((a, b) => a.name.localeCompare(b.name)), sprints };
}

const tickBox = (ticket: Summary, checked: ReadonlySet<string>) =>
  html`<input type="checkbox" name="key" value="${ticket.key}" id="select-${ticket.key}" aria-label="Select ${ticket.key}"${
    checked.has(ticket.key) ? html` checked` : ''
  }>`;

function resultTable(session: Session, tickets: readonly Summary[], checked: ReadonlySet<string>): Html {
  const columns: Column<Summary>[] = [
    { header: 'Select', cell: (t) => tickBox(t, checked) },
    { header: 'Key', cell: (t) => ticketLink(t.key) },
    { header: 'Summary', cell: (t) => t.summary },
    { header: 'Type', cell: (t) => t.type },
    { header: 'Status', cell: (t) => t.status?.name },
    { header: 'Priority', cell: (t) => t.priority },
    { header: 'Assignee', cell: (t) => personLink(t.assignee, 'Unassigned') },
    { header: 'Labels', cell: (t) => t.labels.join(', ') },
    { header: 'Updated', cell: (t) => shownTime(t.updated_at, session.timezone) },
  ];
  return table(columns, tickets, { id: 'ticket-results-table', caption: 'Tickets found', rowAttributes: (t) => html`data-key="${t.key}"` });
}

/** Where the result stands among the whole, and the ways to the pages before and after it. */
function pager(filters: Filters, result: TicketSearchResult): Html {
  const from = result.offset + 1;
  const to = result.offset + result.tickets.length;
  const previous = result.offset > 0 ? searchHref(filters, { offset: String(Math.max(0, result.offset - result.limit)) }) : null;
  const next = to < result.total ? searchHref(filters, { offset: String(to) }) : null;
  const capped = filters.query && result.total >= 250 ? ' A search by words stops at 250 tickets: add filters to narrow it.' : '';
  const links = [
    previous ? html`<a href="${previous}" rel="prev">Previous page</a>` : '',
    next ? html`<a href="${next}" rel="next">Next page</a>` : '',
  ];
  return html`<p class="muted" id="ticket-count">Tickets ${String(from)}–${String(to)} of ${String(result.total)}.${capped}</p>${
    previous || next ? html`<nav class="pager" aria-label="Pages of tickets">${links}</nav>` : ''
  }`;
}

interface ResultsShown {
  filters: Filters;
  result: TicketSearchResult;
  choices: BulkChoices;
  /** The bulk form as the member left it (what was ticked, a field refused), or as `select=all` ticks it. */
  bulk: FormState;
  selectAll: boolean;
  report: readonly ReportLine[] | null;
}

/** The found tickets with the bulk form around them: what htmx swaps after a bulk change. */
function resultsSection(session: Session, shown: ResultsShown): Html {
  const { filters, result } = shown;
  const report = shown.report ? bulkReport(shown.report) : '';
  if (result.tickets.length === 0) {
    const none = emptyState(
      'tickets-none',
      result.total > 0 ? 'No tickets on this page.' : 'No ticket you can see matches these filters.',
      html`Change the filters above, or <a href="/tickets">clear them</a>.`,
    );
    return html`<div id="ticket-results">${report}<section class="card" aria-label="Tickets found">${none}</section></div>`;
  }
  const checked = new Set(shown.selectAll ? result.tickets.map((t) => t.key) : selectedKeys(shown.bulk.values));
  const selection = shown.selectAll
    ? html`<a href="${searchHref(filters)}">Clear the selection</a>`
    : html`<a href="${searchHref(filters, { select: 'all' })}">Select all on this page</a>`;
  const content = html`<input type="hidden" name="back" value="${searchHref(filters)}">
${bulkActions(shown.choices, shown.bulk)}
<p class="selection">${selection}</p>
${resultTable(session, result.tickets, checked)}
${pager(filters, result)}`;
  const bulk = form(session, BULK_PATH, content, {
    id: 'bulk-change',
    target: '#ticket-results',
    state: shown.bulk,
    label: 'Select and change tickets',
  });
  return html`<div id="ticket-results">${report}<section class="card" aria-labelledby="results-title"><h2 id="results-title">Tickets found</h2>${bulk}</section></div>`;
}

/** A search run as the member: search_tickets, GET /tickets itself, so what is found is what the API finds. */
const search = (deps: PagesDeps, asker: Asker, filters: Filters) =>
  runAsMember<TicketSearchResult>(deps, asker, 'search_tickets', { query: { ...filters } });

interface Said {
  bulk?: FormState;
  report?: readonly ReportLine[] | null;
  flash?: Flash | null;
  status?: number;
}

type Results = { ok: true; section: Html } | { ok: false; refused: FormState; status: number };

/** The results of a search and the bulk form over them, or the filters' refusal. */
async function resultsOf(deps: PagesDeps, asker: Asker, filters: Filters, selectAll: boolean, said: Said): Promise<Results> {
  const found = await search(deps, asker, filters);
  if (!found.ok) return { ok: false, refused: refusedForm(found.error, filterValues(filters), [...FILTERS]), status: found.error.status };
  const choices = await bulkChoices(deps, asker, found.value.tickets);
  const shown: ResultsShown = {
    filters,
    result: found.value,
    choices,
    bulk: said.bulk ?? EMPTY_FORM,
    selectAll,
    report: said.report ?? null,
  };
  return { ok: true, section: resultsSection(asker.session, shown) };
}

/** The ticket search page: the filters, and what they find with the bulk form, or the filter refused at its field. */
async function showSearch(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PagesDeps,
  session: Session,
  filters: Filters,
  selectAll: boolean,
  said: Said = {},
): Promise<FastifyReply> {
  const asker = { request, session };
  const [choices, results] = await Promise.all([filterChoices(deps, asker), resultsOf(deps, asker, filters, selectAll, said)]);
  const state = results.ok ? { values: filterValues(filters), errors: {}, problem: null } : results.refused;
  const body = html`<div class="card"><h1>Tickets</h1><p class="muted">Every ticket you can see, found by its words and filters. The address of this page keeps the search: share it, and the same tickets are found for whoever opens it (as far as they may see them).</p>
${filterForm(choices, state)}</div>
${results.ok ? results.section : ''}`;
  const status = results.ok ? (said.status ?? 200) : results.status >= 400 && results.status < 500 ? results.status : 422;
  return sendMemberPage(
    request,
    reply,
    deps,
    session,
    {
      title: 'Tickets',
      body,
      section: 'tickets',
      crumbs: [{ label: 'Tickets' }],
      ...(said.flash !== undefined ? { flash: said.flash } : {}),
    },
    status,
  );
}

/**
 * GET /tickets: the ticket search, its filters in the query string (spec 4.2), run as the member;
 * POST /tickets/bulk: the selected tickets changed one by one through the operation the API uses
 * for one (transition_ticket, assign_ticket, update_ticket, move_to_sprint), answered with a line
 * per ticket — changed, or refused with its reason.
 */
export function ticketSearchRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/tickets', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const selectAll = query.select === 'all';
    // the report a bulk change without script left for this page, said with its message
    const left = await takeFlash(deps, request, reply, session);
    const said: Said =
      left?.kind === 'report' ? { report: left.lines, flash: left.flash } : { flash: left?.kind === 'notice' ? left.flash : null };
    return showSearch(request, reply, deps, session, readFilters(query), selectAll, said);
  });

  app.post(BULK_PATH, async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    // the search the form was on: its filters alone, from the address it sent back
    const back = typeof post.values.back === 'string' ? post.values.back : '';
    const filters = readFilters(Object.fromEntries(new URLSearchParams(back.split('?')[1] ?? '')));
    const asked = readBulkChange(post.values);
    if ('refused' in asked) {
      const state = asked.refused;
      const said = state.problem ?? Object.values(state.errors)[0] ?? 'Choose what to change.';
      return answerRefused(reply, deps, post, new ApiError('invalid', said), {
        page: (status) => showSearch(request, reply, deps, post.session, filters, false, { bulk: state, status }),
        fragment: async () => {
          const results = await resultsOf(deps, post, filters, false, { bulk: state });
          return results.ok ? results.section : html`<div id="ticket-results"></div>`;
        },
      });
    }
    const lines = await runBulkChange(deps, post, asked.change);
    const flash = reportFlash(lines);
    if (!post.htmx) {
      await leaveFlash(deps, reply, post.session, { kind: 'report', flash, lines });
      return reply.redirect(searchHref(filters), 303);
    }
    return answerDone(reply, deps, post, {
      to: searchHref(filters),
      flash,
      fragment: async () => {
        const results = await resultsOf(deps, post, filters, false, { report: lines });
        return results.ok ? results.section : bulkReport(lines);
      },
    });
  });
}
