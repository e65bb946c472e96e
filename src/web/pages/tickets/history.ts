import type { FastifyRequest } from 'fastify';
import type { TicketHistory } from '../../../modules/tickets/index.ts';
import { runAsMember } from '../../actions.ts';
import { describeChanges } from '../../changes.ts';
import { emptyState } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { html, type Html } from '../../html.ts';
import { personLink } from '../../links.ts';
import type { PagesDeps, Session } from '../../session.ts';

/** What a kind of entry did to the ticket, as words after the member's name. */
const DONE: Record<string, string> = {
  created: 'created the ticket',
  updated: 'changed the ticket',
  fields: 'changed custom fields',
  transitioned: 'moved the ticket through its workflow',
  commented: 'commented',
  assigned: 'assigned the ticket',
  worklog: 'logged work',
  sprint: 'moved the ticket to another sprint',
  ranked: 're-ranked the ticket',
  attached: 'attached',
  attachment_removed: 'deleted an attachment',
  linked: 'linked the ticket',
  unlinked: 'removed a link',
};

const doneWords = (kind: string) => DONE[kind] ?? kind.replace(/_/g, ' ');

function historyCard(session: Session, history: TicketHistory): Html {
  const entries = history.entries.map(
    (entry) => html`<li class="history-entry">
<p><strong>${personLink(entry.actor, 'Someone')}</strong> ${doneWords(entry.kind)}
${entry.via ? html`<span class="via">via <strong>${entry.via}</strong></span>` : html`<span class="muted">in the browser</span>`}
<span class="muted">${shownTime(entry.at, session.timezone)}</span></p>
${entry.changes.length ? html`<p class="changes">${describeChanges(entry.changes, { zone: session.timezone })}</p>` : ''}
</li>`,
  );
  return html`<section class="card" id="history" aria-labelledby="history-heading">
<h2 id="history-heading">History</h2>
${entries.length ? html`<ol id="history-entries">${entries}</ol>` : emptyState('no-history', 'No changes recorded')}
</section>`;
}

/** The ticket page's History section: every recorded change, oldest first, who made it and through which agent. */
export async function historySection(deps: PagesDeps, asking: { request: FastifyRequest; session: Session }, key: string): Promise<Html> {
  const read = await runAsMember<TicketHistory>(deps, asking, 'ticket_history', { params: { key } });
  return read.ok ? historyCard(asking.session, read.value) : html``;
}
