import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeProject, visibleProjects, type Project } from '../../../modules/projects/index.ts';
import type { Ticket } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, field, form } from '../../components/index.ts';
import { EMPTY_FORM, formInput, formValues, refusedForm, formValue, type FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { ticketHref } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

const ACTION = '/tickets/new';
const FIELDS = ['project', 'type', 'summary', 'description', 'priority'];

/**
 * The create-ticket form: project, type, summary, description (Markdown) and priority, sent to
 * create_ticket. The types and priorities are the chosen project's; with htmx a new project
 * brings its own, without script they come with the next answer (a type of another project is
 * refused at its field).
 */
async function ticketForm(deps: PagesDeps, request: FastifyRequest, session: Session, state: FormState): Promise<Html> {
  const ctx = await readContext(deps, session, request.id, request.log);
  const projects = await visibleProjects(ctx);
  const chosen = projects.find((p) => p.key.toLowerCase() === formValue(state, 'project').toLowerCase()) ?? projects[0];
  const detail = chosen ? await describeProject(ctx, chosen.key).catch(() => null) : null;
  const choices = (names: readonly string[], none: string) => [
    { value: '', label: none },
    ...names.map((name) => ({ value: name, label: name })),
  ];
  const content = html`${field({
    name: 'project',
    label: 'Project',
    type: 'select',
    state,
    value: chosen?.key,
    choices: projects.map((p: Project) => ({ value: p.key, label: `${p.key} · ${p.name}` })),
  })}
${field({ name: 'type', label: 'Type', type: 'select', state, choices: choices(detail?.ticket_types ?? [], `The project's first (${detail?.ticket_types[0] ?? 'none'})`) })}
${field({ name: 'summary', label: 'Summary', hint: 'One line that says what it is about.', state })}
${field({ name: 'description', label: 'Description', hint: 'Markdown: **bold**, lists, `code`, links; a ticket key becomes a link.', type: 'textarea', optional: true, state })}
${field({ name: 'priority', label: 'Priority', type: 'select', state, choices: choices(detail?.priorities ?? [], 'The default priority') })}
<div class="form-actions">${button('Create')}</div>`;
  // with htmx, choosing a project asks for this form again (without the token) to bring its types and priorities
  const refresh = html`<div hx-get="${ACTION}" hx-trigger="change from:#field-project" hx-include="closest form" hx-params="not csrf" hx-target="#create-ticket" hx-select="#create-ticket" hx-swap="outerHTML"></div>`;
  return form(session, ACTION, html`${refresh}${content}`, { id: 'create-ticket', state });
}

async function showForm(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PagesDeps,
  session: Session,
  state: FormState,
  status = 200,
): Promise<FastifyReply> {
  const body = html`<div class="card"><h1>Create a ticket</h1>${await ticketForm(deps, request, session, state)}</div>`;
  return sendMemberPage(
    request,
    reply,
    deps,
    session,
    { title: 'Create a ticket', body, section: 'home', crumbs: [{ label: 'Create a ticket' }] },
    status,
  );
}

/** /tickets/new: create a ticket from anywhere (the `c` shortcut, the header, a project's page). */
export function newTicketRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get(ACTION, async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    // the query pre-fills the form (?project=KEY), and is how htmx asks for another project's fields
    return showForm(request, reply, deps, session, { ...EMPTY_FORM, values: formValues(request.query) });
  });

  app.post(ACTION, async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const body = formInput(deps.registry.byName.get('create_ticket')!.body!, post.values);
    const outcome = await runAsMember<Ticket>(deps, post, 'create_ticket', { body });
    if (!outcome.ok) {
      const state = refusedForm(outcome.error, post.values, FIELDS);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => showForm(request, reply, deps, post.session, state, status),
        fragment: () => ticketForm(deps, request, post.session, state),
      });
    }
    const ticket = outcome.value;
    return answerDone(reply, deps, post, {
      to: ticketHref(ticket.key),
      flash: { kind: 'success', text: `Created ${ticket.key}: ${ticket.summary}` },
    });
  });
}
