import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatDuration } from '../../../core/durations.ts';
import { ApiError } from '../../../core/errors.ts';
import { visibleProjects } from '../../../modules/projects/index.ts';
import { customFieldsFor, getTicket, isWatching, ticketVersionChoices } from '../../../modules/tickets/index.ts';
import type { TicketDetail, WatchState } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, form } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { html, type Html } from '../../html.ts';
import { personLink, projectLink, ticketHref, ticketLink } from '../../links.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import { readContext } from '../../read-context.ts';
import { renderRichText } from '../../rich-text.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { requireSession } from '../../require-session.ts';
import { attachmentsSection } from './attachments.ts';
import { historySection } from './history.ts';
import { linkRoutes, linksSection } from './links.ts';
import { votesSection } from './votes.ts';
import { commentRoutes, commentsSection } from './comments.ts';
import { editTicketRoutes, shownField } from './edit-ticket.ts';
import { previewRoutes } from './markdown-field.ts';
import type { SentForm, ShowTicketPage, TicketSection, TicketView } from './ticket-view.ts';
import { transitionRoutes, workflowSection } from './transition.ts';
import { worklogRoutes, worklogsSection } from './worklogs.ts';

/**
 * The member's Watch button: runs watch_ticket or unwatch_ticket (web-only operations); with
 * htmx the answer is this form again, as it now is.
 */
function watchForm(session: Session, key: string, watching: boolean): Html {
  const action = `${ticketHref(key)}/${watching ? 'unwatch' : 'watch'}`;
  const content = watching
    ? html`<p><span class="muted">You watch this ticket: you are told of its changes.</span> ${button('Stop watching', { kind: 'secondary' })}</p>`
    : html`<p>${button('Watch', { kind: 'secondary' })}</p>`;
  return form(session, action, content, { id: 'watch' });
}

type Shown = Html | string | null | undefined;
const fact = (label: string, value: Shown, id?: string) =>
  html`<dt>${label}</dt><dd${id ? html` id="${id}"` : ''}>${value === null || value === undefined || value === '' ? '—' : value}</dd>`;
const seconds = (value: number | null) => (value === null ? null : formatDuration(value));

/** The summary as the page's heading, changed in place. */
const summarySection: TicketSection = (view) =>
  html`<div id="summary-line" class="summary-line">${shownField('summary', view.ticket, view.keys)}</div>`;

const watchSection: TicketSection = async (view) => {
  const ctx = await readContext(view.deps, view.session, view.request.id, view.request.log);
  return watchForm(view.session, view.ticket.key, await isWatching(ctx, view.ticket.key));
};

/**
 * Everything the ticket holds besides its texts, as label and value; the fields a member changes
 * have an Edit link (the versions only when the project has some and the member may edit).
 */
const factsSection: TicketSection = async ({ ticket, session, keys, deps, request }) => {
  const zone = session.timezone;
  const edit = (label: string, name: string, id: string, offered = true) => fact(label, shownField(name, ticket, keys, offered), id);
  // asked with write access, the access the versions form's operation runs with; it writes nothing
  const ctx = await readContext(deps, session, request.id, request.log, 'write');
  const versions = ticket.project ? await ticketVersionChoices(ctx, ticket.key, ticket) : null;
  const versionsOffered = (name: 'fix_versions' | 'affected_versions') => versions?.may_edit === true && versions[name].length > 0;
  return html`<dl class="facts" id="facts">
${fact('Project', ticket.project ? projectLink(ticket.project) : null)}${fact('Status', ticket.status?.name, 'status')}${fact('Resolution', ticket.resolution ?? 'Unresolved', 'resolution')}
${fact('Type', ticket.type)}${ticket.request_type ? fact('Request type', ticket.request_type) : ''}${edit('Priority', 'priority', 'priority')}
${edit('Assignee', 'assignee', 'assignee')}${fact('Reporter', personLink(ticket.reporter), 'reporter')}
${edit('Labels', 'labels', 'labels')}${edit('Components', 'components', 'components')}
${edit('Fix versions', 'fix_versions', 'fix-versions', versionsOffered('fix_versions'))}${edit('Affected versions', 'affected_versions', 'affected-versions', versionsOffered('affected_versions'))}
${edit('Parent', 'parent', 'parent')}${edit('Due date', 'due_date', 'due-date')}
${ticket.security_level ? fact('Security level', ticket.security_level) : ''}
${fact('Created', shownTime(ticket.created_at, zone))}${ticket.resolved_at ? fact('Resolved', shownTime(ticket.resolved_at, zone)) : ''}
${ticket.original_estimate_seconds !== null ? fact('Original estimate', seconds(ticket.original_estimate_seconds)) : ''}${
  ticket.remaining_estimate_seconds !== null ? fact('Remaining estimate', seconds(ticket.remaining_estimate_seconds)) : ''
}${ticket.time_spent_seconds ? fact('Time spent', seconds(ticket.time_spent_seconds), 'time-spent') : ''}
</dl>`;
};

/** The custom fields of the ticket's type, changed together in place. */
const customFieldsSection: TicketSection = async (view) => {
  const ctx = await readContext(view.deps, view.session, view.request.id, view.request.log);
  const shapes = view.ticket.project ? await customFieldsFor(ctx, view.ticket.project, view.ticket.type ?? undefined).catch(() => []) : [];
  if (!shapes.length && !Object.keys(view.ticket.fields ?? {}).length) return html``;
  return html`<section aria-labelledby="custom-fields-title"><h2 id="custom-fields-title">Custom fields</h2><div id="custom-fields">${shownField('fields', view.ticket, view.keys)}</div></section>`;
};

const descriptionSection: TicketSection = ({ ticket, keys }) =>
  html`<h2>Description</h2><div id="description">${shownField('description', ticket, keys)}</div>
${ticket.environment ? html`<h2>Environment</h2>${renderRichText(ticket.environment, keys)}` : ''}`;

/** Its sub-tasks, and the way to add one: the create form with this ticket as the parent. */
const subtasksSection: TicketSection = ({ ticket }) => {
  const add = `/tickets/new?${new URLSearchParams({ project: ticket.project ?? '', parent: ticket.key })}`;
  return html`<section aria-labelledby="subtasks-title"><h2 id="subtasks-title">Sub-tasks</h2>${
    ticket.subtasks.length
      ? html`<ul id="subtasks">${ticket.subtasks.map((s) => html`<li>${ticketLink(s.key)} ${s.summary} <span class="muted">${s.status?.name ?? ''}</span></li>`)}</ul>`
      : html`<p class="muted">No sub-tasks.</p>`
  }<p><a href="${add}">Add a sub-task</a></p></section>`;
};

/** The ticket page, top to bottom: a section is one line here (and a file of its own when it has forms). */
const SECTIONS: readonly TicketSection[] = [
  summarySection,
  watchSection,
  workflowSection,
  factsSection,
  customFieldsSection,
  descriptionSection,
  linksSection,
  subtasksSection,
  commentsSection,
  worklogsSection,
];

/** Cards of their own below the ticket's: a part that reads and changes things apart from its fields. */
const CARDS: readonly TicketSection[] = [
  (view) => attachmentsSection(view.deps, view, view.ticket.key),
  (view) => votesSection(view.deps, view, view.ticket.key),
  (view) => historySection(view.deps, view, view.ticket.key),
];

async function ticketBody(view: TicketView): Promise<Html> {
  const [parts, cards] = await Promise.all([
    Promise.all(SECTIONS.map((section) => section(view))),
    Promise.all(CARDS.map((card) => card(view))),
  ]);
  return html`<div class="card">${parts.map((part) => html`${part}\n`)}</div>
${cards.map((card) => html`${card}\n`)}`;
}

/** The ticket page, with one of its forms as the member left it when `sent` says so. */
async function showTicketPage(
  deps: PagesDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  key: string,
  sent?: SentForm,
  status = 200,
): Promise<FastifyReply> {
  try {
    const ctx = await readContext(deps, session, request.id, request.log);
    const [ticket, projects]: [TicketDetail, Awaited<ReturnType<typeof visibleProjects>>] = await Promise.all([
      getTicket(ctx, key),
      visibleProjects(ctx),
    ]);
    // keys of the reader's projects mentioned in the texts become links
    const keys = new Set(projects.map((p) => p.key));
    const body = await ticketBody({ deps, request, session, ticket, keys, ...(sent ? { sent } : {}) });
    return sendMemberPage(
      request,
      reply,
      deps,
      session,
      {
        title: `${ticket.key} ${ticket.summary}`,
        body,
        live: `ticket:${ticket.key}`,
        section: 'home',
        crumbs: [
          ...(ticket.project ? [{ label: ticket.project, href: `/projects/${encodeURIComponent(ticket.project)}` }] : []),
          { label: ticket.key },
        ],
      },
      status,
    );
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403 || error.status === 422)) {
      return memberErrorPage(reply, deps, session, error.status === 422 ? 404 : error.status, error.message);
    }
    throw error;
  }
}

/**
 * /browse/:key: the ticket page behind the same log-in (the `url` field of a ticket), where the
 * member works on it — changes its fields in place, takes its transitions, comments — and which
 * updates while open. Its forms' routes are registered with it.
 */
export function ticketRoutes(app: FastifyInstance, deps: PagesDeps): void {
  const showPage: ShowTicketPage = (request, reply, session, key, sent, status) =>
    showTicketPage(deps, request, reply, session, key, sent, status);
  app.get('/browse/:key', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key } = request.params as { key: string };
    return showTicketPage(deps, request, reply, session, key);
  });
  previewRoutes(app, deps);
  editTicketRoutes(app, deps);
  transitionRoutes(app, deps);
  commentRoutes(app, deps, showPage);
  worklogRoutes(app, deps, showPage);
  linkRoutes(app, deps, showPage);
}

/** Watch and Stop watching: the ticket page's proof of the way every page runs an operation. */
export function watchRoutes(app: FastifyInstance, deps: PagesDeps): void {
  for (const watching of [true, false]) {
    app.post(`/browse/:key/${watching ? 'watch' : 'unwatch'}`, async (request, reply) => {
      const post = await acceptPost(request, reply, deps);
      if (!post) return reply;
      const { key } = request.params as { key: string };
      const outcome = await runAsMember<WatchState>(deps, post, watching ? 'watch_ticket' : 'unwatch_ticket', { params: { key } });
      if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
      const shown = outcome.value.key;
      return answerDone(reply, deps, post, {
        to: ticketHref(shown),
        flash: {
          kind: 'success',
          text: watching ? `You now watch ${shown}: you are told of its changes.` : `You no longer watch ${shown}.`,
        },
        fragment: () => watchForm(post.session, shown, watching),
      });
    });
  }
}
