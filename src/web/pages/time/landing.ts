import type { FastifyInstance } from 'fastify';
import type { ActivityList } from '../../../modules/time/index.ts';
import { runAsMember } from '../../actions.ts';
import { emptyState, table } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { html } from '../../html.ts';
import { projectLink, ticketLink } from '../../links.ts';
import { moduleOpen } from '../../module-gate.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { PagesDeps } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

const SHOWN = 20;

/** /time: the member's recent activities (list_activities for `me`), newest first, a running timer said so. */
export function timeRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/time', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    if (!(await moduleOpen(reply, deps, session, 'time'))) return reply;
    const listed = await runAsMember<ActivityList>(deps, { request, session }, 'list_activities', {
      query: { member: 'me', limit: String(SHOWN) },
    });
    if (!listed.ok) return memberErrorPage(reply, deps, session, listed.error.status, listed.error.message);
    const { activities } = listed.value;
    const body = html`<div class="card"><h1>Time</h1><h2>Your recent activities</h2>${
      activities.length
        ? table(
            [
              { header: 'Started', cell: (a) => shownTime(a.started_at, session.timezone) },
              { header: 'What', cell: (a) => a.description ?? html`<span class="muted">No description</span>` },
              { header: 'Time', cell: (a) => (a.running ? html`<strong>running</strong>` : a.time_spent) },
              {
                header: 'On',
                cell: (a) => (a.ticket ? ticketLink(a.ticket.key) : a.project ? projectLink(a.project.key) : (a.customer?.name ?? '—')),
              },
            ],
            activities,
            { id: 'activities', caption: 'Your recent activities, newest first' },
          )
        : emptyState(
            'activities-none',
            'You have tracked no time yet.',
            'A timer started or time logged through an agent or the API shows here.',
          )
    }</div>`;
    return sendMemberPage(request, reply, deps, session, { title: 'Time', body, section: 'time', crumbs: [{ label: 'Time' }] });
  });
}
