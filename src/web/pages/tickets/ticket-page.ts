import type { FastifyInstance } from 'fastify';
import { formatDuration } from '../../../core/durations.ts';
import { ApiError } from '../../../core/errors.ts';
import { visibleProjects } from '../../../modules/projects/index.ts';
import { getTicket, isWatching } from '../../../modules/tickets/index.ts';
import type { TicketDetail, WatchState } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, form } from '../../components/index.ts';
import { fieldLabel, shownTime } from '../../format.ts';
import { html, type Html } from '../../html.ts';
import { personLink, projectLink, ticketHref, ticketLink } from '../../links.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import { readContext } from '../../read-context.ts';
import { renderRichText } from '../../rich-text.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { requireSession } from '../../require-session.ts';
import { attachmentsSection } from './attachments.ts';
import { historySection } from './history.ts';
import { votesSection } from './votes.ts';

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
const list = (values: readonly string[]) => (values.length ? values.join(', ') : null);
const seconds = (value: number | null) => (value === null ? null : formatDuration(value));

/** Everything the ticket holds besides its texts, as label and value; absent optional facts are left out. */
function facts(ticket: TicketDetail, zone: string): Html {
  const custom = Object.entries(ticket.fields ?? {});
  return html`<dl class="facts" id="facts">
${fact('Project', ticket.project ? projectLink(ticket.project) : null)}${fact('Status', ticket.status?.name, 'status')}${fact('Resolution', ticket.resolution ?? 'Unresolved', 'resolution')}
${fact('Type', ticket.type)}${ticket.request_type ? fact('Request type', ticket.request_type) : ''}${fact('Priority', ticket.priority)}
${fact('Assignee', personLink(ticket.assignee, 'Unassigned'), 'assignee')}${fact('Reporter', personLink(ticket.reporter), 'reporter')}
${fact('Labels', list(ticket.labels))}${fact('Components', list(ticket.components))}
${fact('Fix versions', list(ticket.fix_versions), 'fix-versions')}${fact('Affected versions', list(ticket.affected_versions), 'affected-versions')}
${fact('Parent', ticket.parent ? ticketLink(ticket.parent) : null, 'parent')}${fact('Due date', ticket.due_date, 'due-date')}
${ticket.security_level ? fact('Security level', ticket.security_level) : ''}
${fact('Created', shownTime(ticket.created_at, zone))}${ticket.resolved_at ? fact('Resolved', shownTime(ticket.resolved_at, zone)) : ''}
${ticket.original_estimate_seconds !== null ? fact('Original estimate', seconds(ticket.original_estimate_seconds)) : ''}${
  ticket.remaining_estimate_seconds !== null ? fact('Remaining estimate', seconds(ticket.remaining_estimate_seconds)) : ''
}${ticket.time_spent_seconds ? fact('Time spent', seconds(ticket.time_spent_seconds), 'time-spent') : ''}
${custom.map(([key, value]) => fact(fieldLabel(key), value, `field-${key}`))}
</dl>`;
}

function ticketBody(ticket: TicketDetail, watch: Html, keys: ReadonlySet<string>, zone: string): Html {
  return html`<div class="card"><h1><span id="ticket-key">${ticket.key}</span> ${ticket.summary}</h1>
${watch}
${facts(ticket, zone)}
<h2>Description</h2><div id="description">${renderRichText(ticket.description, keys)}</div>
${ticket.environment ? html`<h2>Environment</h2>${renderRichText(ticket.environment, keys)}` : ''}
${ticket.links.length ? html`<h2>Links</h2><ul id="links">${ticket.links.map((l) => html`<li>${l.relation} ${ticketLink(l.ticket)} ${l.summary}${l.status ? html` <span class="muted">${l.status.name}</span>` : ''}</li>`)}</ul>` : ''}
${ticket.subtasks.length ? html`<h2>Sub-tasks</h2><ul id="subtasks">${ticket.subtasks.map((s) => html`<li>${ticketLink(s.key)} ${s.summary} <span class="muted">${s.status?.name ?? ''}</span></li>`)}</ul>` : ''}
<h2>Comments</h2>
<div id="comments">${
    ticket.comments.length
      ? ticket.comments.map(
          (c) =>
            html`<div class="comment"><p><strong>${personLink(c.author, 'Someone')}</strong> <span class="muted">${shownTime(c.created_at, zone)}</span></p>${renderRichText(c.body, keys)}</div>`,
        )
      : html`<p class="muted">No comments.</p>`
  }</div>
<h2>Work logged</h2>
<div id="worklogs">${
    ticket.worklogs.length
      ? ticket.worklogs.map(
          (w) =>
            html`<div class="worklog"><p><strong>${personLink(w.author, 'Someone')}</strong> logged <strong>${w.time_spent}</strong> <span class="muted">started ${shownTime(w.started_at, zone)}</span></p>${w.body ? renderRichText(w.body, keys) : ''}</div>`,
        )
      : html`<p class="muted">No work logged.</p>`
  }</div>
</div>`;
}

/**
 * /browse/:key: the ticket page behind the same log-in (the `url` field of a ticket): read-only
 * but for the member's own Watch button; it updates while open.
 */
export function ticketRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/browse/:key', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key } = request.params as { key: string };
    try {
      const ctx = await readContext(deps, session, request.id, request.log);
      const ticket = await getTicket(ctx, key);
      const [watching, projects] = await Promise.all([isWatching(ctx, ticket.key), visibleProjects(ctx)]);
      // keys of the reader's projects mentioned in the texts become links
      const keys = new Set(projects.map((p) => p.key));
      return sendMemberPage(request, reply, deps, session, {
        title: `${ticket.key} ${ticket.summary}`,
        body: html`${ticketBody(ticket, watchForm(session, ticket.key, watching), keys, session.timezone)}
${await attachmentsSection(deps, { request, session }, ticket.key)}
${await votesSection(deps, { request, session }, ticket.key)}
${await historySection(deps, { request, session }, ticket.key)}`,
        live: `ticket:${ticket.key}`,
        section: 'home',
        crumbs: [
          ...(ticket.project ? [{ label: ticket.project, href: `/projects/${encodeURIComponent(ticket.project)}` }] : []),
          { label: ticket.key },
        ],
      });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 403 || error.status === 422)) {
        return memberErrorPage(reply, deps, session, error.status === 422 ? 404 : error.status, error.message);
      }
      throw error;
    }
  });
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
