import type { FastifyInstance } from 'fastify';
import { describeChanges } from '../../changes.ts';
import { emptyState } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { html } from '../../html.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { WebDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

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
    if (!session.isAdmin)
      return memberErrorPage(reply, deps, session, 403, 'Only administrators can read the audit log.', [{ label: 'Audit log' }]);
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
    ? emptyState('no-audit', 'Nothing has been changed yet.')
    : html`<table id="audit" class="stack"><thead><tr><th scope="col">When</th><th scope="col">Member</th><th scope="col">Agent</th><th scope="col">What</th><th scope="col">Target</th><th scope="col">Changed</th></tr></thead><tbody>${rows.map(
        (row) =>
          html`<tr><td data-label="When">${shownTime(row.at, session.timezone)}</td><td data-label="Member">${row.actor ?? '—'}</td><td class="agent" data-label="Agent">${row.via ?? '—'}</td><td data-label="What">${row.action}</td><td data-label="Target">${row.target}</td><td class="changed" data-label="Changed">${describeChanges(row.changes, { switches: true, zone: session.timezone })}</td></tr>`,
      )}</tbody></table>`
}
</div>`;
    return sendMemberPage(request, reply, deps, session, { title: 'Audit log', body, section: 'audit', crumbs: [{ label: 'Audit log' }] });
  });
}
