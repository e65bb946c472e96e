import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeProject, visibleProjects, type Project } from '../../../modules/projects/index.ts';
import { customFieldsFor, type FieldShape, type Ticket } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../actions.ts';
import { button, field, form } from '../../components/index.ts';
import { EMPTY_FORM, formInput, formValues, refusedForm, formValue, type FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { ticketHref } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { requireSession } from '../../require-session.ts';
import { customFieldInputs, customFieldName, customFieldValues } from './custom-fields.ts';
import { checkChoices, checkedNames, componentChoices } from './edit-ticket.ts';
import { markdownField, wantsPreview } from './markdown-field.ts';

const ACTION = '/tickets/new';
const FIELDS = [
  'project',
  'type',
  'request_type',
  'summary',
  'description',
  'priority',
  'assignee',
  'labels',
  'components',
  'due_date',
  'parent',
  'fix_versions',
];

type ProjectDetail = Awaited<ReturnType<typeof describeProject>>;
/** What list_request_types answers that the form uses. */
type RequestTypeList = { request_types: { key: string; name: string; archived: boolean }[] };

/** What the form offers for the chosen project and type: its names, its people, its custom fields, its helpdesk forms. */
interface Chosen {
  projects: Project[];
  project: Project | undefined;
  detail: ProjectDetail | null;
  custom: FieldShape[];
  requestTypes: { key: string; name: string }[];
  keys: ReadonlySet<string>;
}

async function choose(deps: PagesDeps, request: FastifyRequest, session: Session, state: FormState): Promise<Chosen> {
  const ctx = await readContext(deps, session, request.id, request.log);
  const projects = await visibleProjects(ctx);
  const project = projects.find((p) => p.key.toLowerCase() === formValue(state, 'project').toLowerCase()) ?? projects[0];
  const keys = new Set(projects.map((p) => p.key));
  if (!project) return { projects, project, detail: null, custom: [], requestTypes: [], keys };
  const type = formValue(state, 'type');
  const [detail, custom, forms] = await Promise.all([
    describeProject(ctx, project.key).catch(() => null),
    customFieldsFor(ctx, project.key, type || undefined).catch(() => []),
    project.kind === 'helpdesk'
      ? runAsMember<RequestTypeList>(deps, { request, session }, 'list_request_types', { params: { project: project.key } })
      : null,
  ]);
  const requestTypes = forms?.ok ? forms.value.request_types.filter((f) => !f.archived).map((f) => ({ key: f.key, name: f.name })) : [];
  return { projects, project, detail, custom, requestTypes, keys };
}

const named = (names: readonly string[], none: string) => [
  { value: '', label: none },
  ...names.map((name) => ({ value: name, label: name })),
];

/**
 * The create-ticket form: project and type (and the request type on a helpdesk project), then
 * summary, description (Markdown, with its preview), due date and parent, then what the project
 * and type offer — priority, assignee, labels, components, custom fields — sent to create_ticket,
 * and fix versions, set right after by set_ticket_versions (create_ticket takes none). With htmx a
 * new project or type brings its own fields; without script they come with the next answer (a
 * type of another project is refused at its field).
 */
async function ticketForm(deps: PagesDeps, request: FastifyRequest, session: Session, state: FormState): Promise<Html> {
  const chosen = await choose(deps, request, session, state);
  const { detail } = chosen;
  const helpdesk =
    chosen.project?.kind === 'helpdesk'
      ? field({
          name: 'request_type',
          label: 'Helpdesk form',
          hint: 'The request form the ticket comes through; it chooses the type when none is.',
          type: 'select',
          state,
          choices: [{ value: '', label: 'None' }, ...chosen.requestTypes.map((f) => ({ value: f.key, label: f.name }))],
        })
      : '';
  const content = html`${field({
    name: 'project',
    label: 'Project',
    type: 'select',
    state,
    value: chosen.project?.key,
    choices: chosen.projects.map((p) => ({ value: p.key, label: `${p.key} · ${p.name}` })),
  })}
<div id="create-type-choices">
${field({ name: 'type', label: 'Type', type: 'select', state, choices: named(detail?.ticket_types ?? [], `The project's first (${detail?.ticket_types[0] ?? 'none'})`) })}
${helpdesk}
</div>
${field({ name: 'summary', label: 'Summary', hint: 'One line that says what it is about.', state })}
${markdownField(session, { name: 'description', label: 'Description', hint: 'Markdown: **bold**, lists, `code`, links; a ticket key becomes a link.', optional: true, state, keys: chosen.keys })}
${field({ name: 'due_date', label: 'Due date', type: 'date', optional: true, state })}
${field({ name: 'parent', label: 'Parent', hint: 'The key of an epic or a ticket of the same project.', optional: true, state })}
<div id="create-field-choices">
${field({ name: 'priority', label: 'Priority', type: 'select', state, choices: named(detail?.priorities ?? [], 'The default priority') })}
${field({
  name: 'assignee',
  label: 'Assignee',
  type: 'select',
  state,
  choices: [
    { value: '', label: "The component's or project's default" },
    ...(detail?.assignable_users ?? []).map((p) => ({ value: p.id, label: p.name })),
  ],
})}
${field({ name: 'labels', label: 'Labels', hint: `Separated by commas; a new one joins the project. In use: ${detail?.labels.join(', ') || 'none yet'}.`, optional: true, state })}
${detail?.components.length ? componentChoices(detail.components, state.values.components, state) : ''}
${
  detail?.versions.length
    ? checkChoices({
        name: 'fix_versions',
        legend: 'Fix versions',
        idPrefix: 'fix-version',
        all: detail.versions,
        chosen: state.values.fix_versions,
        state,
        none: 'The project has no versions.',
      })
    : ''
}
${customFieldInputs(chosen.custom, state)}
</div>
<div class="form-actions">${button('Create')}</div>`;
  // with htmx, choosing a project or a type asks for this form again (without the token) and takes
  // from it only what the project and type decide: what is typed meanwhile in the summary,
  // description, due date or parent is never drawn over
  const refresh = html`<div hx-get="${ACTION}" hx-trigger="change from:#field-project, change from:#field-type" hx-include="closest form" hx-params="not csrf" hx-target="#create-type-choices" hx-select="#create-type-choices" hx-select-oob="#create-field-choices" hx-swap="outerHTML"></div>`;
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

/**
 * The fix versions chosen, set on the ticket just created by the member's own set_ticket_versions
 * (create_ticket takes none, spec 4.2). The ticket exists whatever this answers: a refusal is said
 * in the message on its page, not by losing it.
 */
async function fixVersionsOf(
  deps: PagesDeps,
  post: PagePost,
  ticket: Ticket,
  versions: string[],
): Promise<{ kind: 'success' | 'error'; text: string }> {
  const created = `Created ${ticket.key}: ${ticket.summary}`;
  if (!versions.length) return { kind: 'success', text: created };
  const set = await runAsMember<Ticket>(deps, post, 'set_ticket_versions', {
    params: { key: ticket.key },
    body: { fix_versions: versions },
  });
  if (set.ok) return { kind: 'success', text: created };
  return { kind: 'error', text: `${created}. Its fix versions were not set: ${set.error.message}` };
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
    const sent: FormState = { ...EMPTY_FORM, values: post.values };
    if (wantsPreview(sent)) {
      if (post.htmx) return reply.type('text/html; charset=utf-8').send((await ticketForm(deps, request, post.session, sent)).value);
      return showForm(request, reply, deps, post.session, sent);
    }
    const body = formInput(deps.registry.byName.get('create_ticket')!.body!, post.values);
    const chosen = await choose(deps, request, post.session, sent);
    const fields = customFieldValues(chosen.custom, post.values);
    if (fields) body.fields = fields;
    const outcome = await runAsMember<Ticket>(deps, post, 'create_ticket', { body });
    if (!outcome.ok) {
      const state = refusedForm(outcome.error, post.values, [...FIELDS, ...chosen.custom.map((f) => customFieldName(f.key))]);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => showForm(request, reply, deps, post.session, state, status),
        fragment: () => ticketForm(deps, request, post.session, state),
      });
    }
    const ticket = outcome.value;
    return answerDone(reply, deps, post, {
      to: ticketHref(ticket.key),
      flash: await fixVersionsOf(deps, post, ticket, checkedNames(post.values.fix_versions)),
    });
  });
}
