import type { TicketSearchResult } from '../modules/tickets/index.ts';
import { emptyState } from './components/empty-state.ts';
import { html, type Html } from './html.ts';
import { personLink, ticketLink } from './links.ts';

/** Tickets as a list of links, with how many more there are than the page shows. */
export function ticketList(result: TicketSearchResult, id: string, empty: string, showAssignee = true): Html {
  if (result.tickets.length === 0) return emptyState(`${id}-none`, empty);
  const more = result.total - result.tickets.length;
  return html`<ul class="tickets" id="${id}">${result.tickets.map(
    (t) =>
      html`<li>${ticketLink(t.key)} ${t.summary} <span class="muted">· ${t.status?.name ?? ''}${t.priority ? ` · ${t.priority}` : ''}</span>${
        showAssignee ? html` <span class="muted">·</span> ${personLink(t.assignee, 'Unassigned')}` : ''
      }</li>`,
  )}</ul>${more > 0 ? html`<p class="muted">and ${String(more)} more, most recently updated first.</p>` : ''}`;
}
