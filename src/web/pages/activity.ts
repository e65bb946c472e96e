import type { FastifyInstance } from 'fastify';
import { toTimestamp } from '../../core/time.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { sendPage, viewerOf } from '../respond.ts';
import type { WebDeps } from '../session.ts';
import { requireSession } from './guard.ts';

const SHOWN = 200;

function describeChanges(changes: HistoryChange[]): string {
  return changes.map((change) => change.field).join(', ');
}

/**
 * "What my agents did": the member's recent changes made through tokens, newest first, each with
 * the name of the token or application that made it (history's `via`).
 */
export function activityRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/agents/activity', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    // ticket history and the workspace audit log (helpdesk forms), merged newest first
    const [history, audit] = await Promise.all([
      deps.db
        .selectFrom('history')
        .select(['at', 'entity_type', 'kind', 'via', 'changes'])
        .where('actor_id', '=', session.memberId)
        .where('via', 'is not', null)
        .orderBy('at', 'desc')
        .limit(SHOWN)
        .execute(),
      deps.db
        .selectFrom('audit_log')
        .select(['at', 'action', 'target', 'via', 'changes'])
        .where('actor_id', '=', session.memberId)
        .where('via', 'is not', null)
        .orderBy('at', 'desc')
        .limit(SHOWN)
        .execute(),
    ]);
    const rows = [
      ...history.map((row) => ({ at: row.at, via: row.via, what: `${row.entity_type} ${row.kind}`, changes: row.changes })),
      ...audit.map((row) => ({ at: row.at, via: row.via, what: `${row.action}: ${row.target}`, changes: row.changes })),
    ]
      .sort((a, b) => toTimestamp(b.at).localeCompare(toTimestamp(a.at)))
      .slice(0, SHOWN);
    const body = html`<div class="card"><h1>What my agents did</h1>
<p class="muted">Changes made as you through personal tokens and connected applications, newest first (the last ${SHOWN}).</p>
${
  rows.length === 0
    ? html`<p id="no-activity">Your agents have not changed anything yet.</p>`
    : html`<table id="activity"><thead><tr><th>When</th><th>Agent</th><th>What</th><th>Changed</th></tr></thead><tbody>${rows.map(
        (row) =>
          html`<tr><td>${toTimestamp(row.at).slice(0, 19).replace('T', ' ')} UTC</td><td class="agent">${row.via}</td><td>${row.what}</td><td>${describeChanges(row.changes)}</td></tr>`,
      )}</tbody></table>`
}</div>`;
    return sendPage(reply, layout('What my agents did', body, viewerOf(session)));
  });
}
