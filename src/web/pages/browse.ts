import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { toTimestamp } from '../../core/time.ts';
import { getTicket, isWatching, setWatching } from '../../modules/tickets/index.ts';
import type { TicketDetail } from '../../modules/tickets/index.ts';
import { html, type Html } from '../html.ts';
import { layout } from '../layout.ts';
import { errorPage, sendPage, viewerOf } from '../respond.ts';
import { readContext } from '../read-context.ts';
import { csrfMatches, csrfToken, foreignOrigin, type WebDeps } from '../session.ts';
import { requireSession } from './guard.ts';

function richText(text: { text: string } | null): Html {
  // Shown as stored: the service never turns text into HTML (spec 2.2), and escaping keeps it inert.
  return text ? html`<pre class="text">${text.text}</pre>` : html`<p class="muted">None.</p>`;
}

function watchForm(key: string, watching: boolean, csrf: string): Html {
  return html`<form id="watch" method="post" action="/browse/${key}/watch"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="watch" value="${watching ? 'off' : 'on'}">${
    watching ? html`<span class="muted">You watch this ticket: you are told of its changes.</span> <button type="submit" class="secondary">Stop watching</button>` : html`<button type="submit" class="secondary">Watch</button>`
  }</form>`;
}

function ticketBody(ticket: TicketDetail, watch: Html): Html {
  const row = (label: string, value: string | null | undefined) => html`<tr><th>${label}</th><td>${value ?? '—'}</td></tr>`;
  return html`<div class="card"><h1><span id="ticket-key">${ticket.key}</span> ${ticket.summary}</h1>
${watch}
<table>
${row('Status', ticket.status?.name)}${row('Type', ticket.type)}${ticket.request_type ? row('Request type', ticket.request_type) : ''}${row('Priority', ticket.priority)}
${row('Assignee', ticket.assignee?.name)}${row('Reporter', ticket.reporter?.name)}
${row('Labels', ticket.labels.join(', ') || null)}${row('Components', ticket.components.join(', ') || null)}
${row('Parent', ticket.parent)}${row('Created', ticket.created_at ? toTimestamp(ticket.created_at).slice(0, 16).replace('T', ' ') : null)}
</table>
<h2>Description</h2>${richText(ticket.description)}
${ticket.links.length ? html`<h2>Links</h2><ul>${ticket.links.map((l) => html`<li>${l.relation} <a href="/browse/${l.ticket}">${l.ticket}</a> ${l.summary}</li>`)}</ul>` : ''}
${ticket.subtasks.length ? html`<h2>Sub-tasks</h2><ul>${ticket.subtasks.map((s) => html`<li><a href="/browse/${s.key}">${s.key}</a> ${s.summary}</li>`)}</ul>` : ''}
<h2>Comments</h2>
${
  ticket.comments.length
    ? ticket.comments.map((c) => html`<div class="comment"><p><strong>${c.author?.name ?? 'Someone'}</strong> <span class="muted">${toTimestamp(c.created_at).slice(0, 16).replace('T', ' ')}</span></p>${richText(c.body)}</div>`)
    : html`<p class="muted">No comments.</p>`
}
</div>`;
}

/**
 * /browse/:key: the ticket page behind the same log-in (the `url` field of a ticket): read-only
 * but for the member's own Watch button; it updates while open.
 */
export function browseRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/browse/:key', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key } = request.params as { key: string };
    try {
      const ctx = await readContext(deps, session, request.id, request.log);
      const ticket = await getTicket(ctx, key);
      const watch = watchForm(ticket.key, await isWatching(ctx, ticket.key), csrfToken(session.cookie, `watch:${ticket.key}`));
      return sendPage(reply, layout(`${ticket.key} ${ticket.summary}`, ticketBody(ticket, watch), viewerOf(session), `ticket:${ticket.key}`));
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 403 || error.status === 422)) {
        return errorPage(reply, error.status === 422 ? 404 : error.status, error.message, viewerOf(session));
      }
      throw error;
    }
  });
}

/** The Watch / Stop watching button of the ticket page. */
export function watchRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.post('/browse/:key/watch', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key } = request.params as { key: string };
    const form = (request.body ?? {}) as Record<string, unknown>;
    if (foreignOrigin(request, deps) || !csrfMatches(session.cookie, `watch:${key}`, form.csrf)) {
      return errorPage(reply, 403, 'This form has expired or did not come from this site.', viewerOf(session));
    }
    try {
      await setWatching(await readContext(deps, session, request.id, request.log), key, form.watch === 'on');
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return errorPage(reply, 404, error.message, viewerOf(session));
      throw error;
    }
    return reply.redirect(`/browse/${encodeURIComponent(key)}`, 303);
  });
}
