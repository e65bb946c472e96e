import type { FastifyInstance } from 'fastify';
import { visibleProjects } from '../../../modules/projects/index.ts';
import { getTicket } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, field, form } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { EMPTY_FORM, formInput, refusedForm, type FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { personLink, ticketHref } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { renderRichText } from '../../rich-text.ts';
import type { PagesDeps } from '../../session.ts';
import { markdownField, wantsPreview } from './markdown-field.ts';
import { sentState, type ShowTicketPage, type TicketView } from './ticket-view.ts';

const FORM = 'worklog';
const worklogsHref = (key: string) => `${ticketHref(key)}/worklogs`;

function worklogForm(view: TicketView, state: FormState | undefined): Html {
  const content = html`${field({ name: 'time_spent', label: 'Time spent', hint: 'Like 1h 30m, 45m or 2d (a day is 8 hours, a week 5 days).', state })}
${markdownField(view.session, { name: 'worklog_body', label: 'What was done', optional: true, state, keys: view.keys })}
<div class="form-actions">${button('Log work')}</div>`;
  return form(view.session, worklogsHref(view.ticket.key), content, {
    id: 'worklog-form',
    target: '#worklogs-section',
    state,
    label: 'Log work',
  });
}

/** The ticket page's Work logged: newest first, then the form that logs time (log_work). */
export function worklogsSection(view: TicketView): Html {
  const { ticket, session, keys } = view;
  return html`<section id="worklogs-section" aria-labelledby="worklogs-title"><h2 id="worklogs-title">Work logged</h2>
<div id="worklogs">${
    ticket.worklogs.length
      ? ticket.worklogs.map(
          (w) =>
            html`<div class="worklog"><p><strong>${personLink(w.author, 'Someone')}</strong> logged <strong>${w.time_spent}</strong> <span class="muted">started ${shownTime(w.started_at, session.timezone)}</span></p>${w.body ? renderRichText(w.body, keys) : ''}</div>`,
        )
      : html`<p class="muted">No work logged.</p>`
  }</div>
${worklogForm(view, sentState(view, FORM))}</section>`;
}

/** Logging work on the ticket through log_work: the time spent, and what was done (Markdown, with its preview). */
export function worklogRoutes(app: FastifyInstance, deps: PagesDeps, showPage: ShowTicketPage): void {
  app.post('/browse/:key/worklogs', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key } = request.params as { key: string };
    const section = async (state: FormState | undefined) => {
      const ctx = await readContext(deps, post.session, request.id, request.log);
      const [ticket, projects] = await Promise.all([getTicket(ctx, key), visibleProjects(ctx)]);
      const keys = new Set(projects.map((p) => p.key));
      const sent = state ? { sent: { name: FORM, state } } : {};
      return worklogsSection({ deps, request, session: post.session, ticket, keys, ...sent });
    };
    const sent: FormState = { ...EMPTY_FORM, values: post.values };
    if (wantsPreview(sent)) {
      if (post.htmx) return reply.type('text/html; charset=utf-8').send((await section(sent)).value);
      return showPage(request, reply, post.session, key, { name: FORM, state: sent });
    }
    // the form's text is `worklog_body`, so its preview never meets the comment's on the same page
    const { worklog_body: text, ...rest } = post.values;
    const body = formInput(deps.registry.byName.get('log_work')!.body!, { ...rest, ...(text === undefined ? {} : { body: text }) });
    const outcome = await runAsMember(deps, post, 'log_work', { params: { key }, body });
    if (!outcome.ok) {
      const refused = refusedForm(outcome.error, post.values, ['time_spent', 'body']);
      // a refusal of the text is said at the form's field of that name
      const state = refused.errors.body ? { ...refused, errors: { worklog_body: refused.errors.body } } : refused;
      // an unreadable duration (invalid_duration) names no field: said at the time spent
      const atTime =
        outcome.error.code === 'invalid_duration' ? { ...state, errors: { time_spent: outcome.error.message }, problem: null } : state;
      if (outcome.error.status === 404) return answerRefused(reply, deps, post, outcome.error);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => showPage(request, reply, post.session, key, { name: FORM, state: atTime }, status),
        fragment: () => section(atTime),
      });
    }
    return answerDone(reply, deps, post, {
      to: `${ticketHref(key)}#worklogs-section`,
      flash: { kind: 'success', text: `Work logged on ${key.toUpperCase()}.` },
      fragment: () => section(undefined),
    });
  });
}
