import type { FastifyInstance } from 'fastify';
import type { SprintReport } from '../../../modules/boards/index.ts';
import { runAsMember } from '../../actions.ts';
import { emptyState, table } from '../../components/index.ts';
import { html, type Html } from '../../html.ts';
import { boardHref, ticketLink } from '../../links.ts';
import { moduleOpen } from '../../module-gate.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { PagesDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';
import { shownTime } from '../../format.ts';
import { burndownSvg, burndownTable, type Measure } from './admin/burndown-chart.ts';

type Listed = SprintReport['completed'];

function ticketList(id: string, title: string, tickets: Listed, none: string): Html {
  return html`<section class="card" aria-labelledby="${id}-title"><h2 id="${id}-title">${title} <span class="muted">· ${String(tickets.length)}</span></h2>${
    tickets.length
      ? table(
          [
            { header: 'Ticket', cell: (t) => ticketLink(t.key) },
            { header: 'Summary', cell: (t) => t.summary },
            { header: 'Status now', cell: (t) => t.status },
          ],
          tickets,
          { id },
        )
      : emptyState(`${id}-none`, none, '')
  }</section>`;
}

/** /boards/:number/sprints/:sprint/report: an active or closed sprint's report (spec 1: done in the browser), get_sprint_report. */
export function sprintReportRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/boards/:number/sprints/:sprint/report', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'boards'))) return reply;
    const params = request.params as { number: string; sprint: string };
    const number = Number(params.number);
    const read = await runAsMember<SprintReport>(deps, { request, session }, 'get_sprint_report', {
      params: { number, sprint: params.sprint },
    });
    if (!read.ok) {
      const status = read.error.status === 403 || read.error.status === 409 ? read.error.status : 404;
      return memberErrorPage(reply, deps, session, status, read.error.message, [{ label: 'Boards', href: '/boards' }]);
    }
    const report = read.value;
    const { sprint } = report;
    const asked = (request.query as { by?: unknown }).by;
    const hasEstimates = report.burndown.some((d) => (d.remaining_seconds ?? 0) > 0);
    const by: Measure = asked === 'tickets' || asked === 'estimate' ? asked : hasEstimates ? 'estimate' : 'tickets';
    const here = `/boards/${number}/sprints/${encodeURIComponent(sprint.id)}/report`;
    const measures = html`<nav aria-label="Burndown measure"><ul class="sprints">${(
      [
        ['tickets', 'Ticket count'],
        ['estimate', 'Remaining estimate'],
      ] as const
    ).map(
      ([value, label]) => html`<li><a href="${here}?by=${value}"${value === by ? html` aria-current="page"` : ''}>${label}</a></li>`,
    )}</ul></nav>`;
    const when = html`${sprint.start_at ? shownTime(sprint.start_at, session.timezone) : '—'} to ${
      sprint.completed_at
        ? html`${shownTime(sprint.completed_at, session.timezone)} (completed)`
        : sprint.end_at
          ? shownTime(sprint.end_at, session.timezone)
          : '—'
    }`;
    const body = html`<div class="card"><h1>Report of ${sprint.name}</h1>
<p class="muted">${sprint.state} sprint · ${when}${sprint.goal ? html` · Goal: ${sprint.goal}` : ''}</p>
<p id="sprint-summary">${String(report.committed)} tickets when it started; ${String(report.completed.length)} completed, ${String(report.not_completed.length)} not completed, ${String(report.added.length)} added after the start, ${String(report.removed.length)} removed.</p></div>
<section class="card" aria-labelledby="burndown-heading"><h2 id="burndown-heading">Burndown</h2>${measures}${burndownSvg(report, by)}${burndownTable(report)}</section>
${ticketList('completed', 'Completed', report.completed, 'No ticket was completed.')}
${ticketList('not-completed', 'Not completed', report.not_completed, 'Every ticket was completed.')}
${ticketList('added', 'Added after the start', report.added, 'No ticket was added after the start.')}
${ticketList('removed', 'Removed during the sprint', report.removed, 'No ticket was removed.')}`;
    return sendMemberPage(request, reply, deps, session, {
      title: `Report of ${sprint.name}`,
      body,
      section: 'boards',
      crumbs: [
        { label: 'Boards', href: '/boards' },
        { label: `Board ${number}`, href: boardHref(number) },
        { label: `Report of ${sprint.name}` },
      ],
    });
  });
}
