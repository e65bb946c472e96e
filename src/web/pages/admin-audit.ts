import type { FastifyInstance } from 'fastify';
import { toTimestamp } from '../../core/time.ts';
import { describeChanges } from '../changes.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { errorPage, sendPage, viewerOf } from '../respond.ts';
import type { WebDeps } from '../session.ts';
import { requireSession } from './guard.ts';

const SHOWN = 200;

/**
 * The workspace audit log (spec 4.4) for administrators: configuration changes (helpdesk forms,
 * switches), newest first, each with the member and the token or application that made it. The API
 * offers no way to read it; this page is where it is read.
 */
export function adminAuditRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/admin/audit', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!session.isAdmin) return errorPage(reply, 403, 'Only administrators can read the audit log.', viewerOf(session));
    const rows = await deps.db
      .selectFrom('audit_log as a')
      .leftJoin('members as m', 'm.id', 'a.actor_id')
      .select(['a.at', 'a.via', 'a.action', 'a.target', 'a.changes', 'm.display_name as actor'])
      .orderBy('a.at', 'desc')
      .orderBy('a.id')
      .limit(SHOWN)
      .execute();
    const body = html`<div class="card"><h1>Audit log</h1>
<p class="muted">Workspace configuration changed through the API (helpdesk forms), this site's settings page or the command line, newest first (the last ${SHOWN}), with the member and the token, application or command line that made each change.</p>
${
  rows.length === 0
    ? html`<p id="no-audit">Nothing has been changed yet.</p>`
    : html`<table id="audit" class="stack"><thead><tr><th>When</th><th>Member</th><th>Agent</th><th>What</th><th>Target</th><th>Changed</th></tr></thead><tbody>${rows.map(
        (row) =>
          html`<tr><td>${toTimestamp(row.at).slice(0, 19).replace('T', ' ')} UTC</td><td>${row.actor ?? '—'}</td><td class="agent">${row.via ?? '—'}</td><td>${row.action}</td><td>${row.target}</td><td class="changed">${describeChanges(row.changes, true)}</td></tr>`,
      )}</tbody></table>`
}
</div>`;
    return sendPage(reply, layout('Audit log', body, viewerOf(session)));
  });
}
