import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeProject } from '../../../modules/projects/index.ts';
import { getTicket, type Ticket, type TransitionScreens } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../actions.ts';
import { button, field, form, linkButton } from '../../components/index.ts';
import { EMPTY_FORM, formInput, refusedForm, type FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { ticketHref, ticketLink } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { requireSession } from '../../require-session.ts';
import { memberErrorPage, sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { customFieldInputs, customFieldName, customFieldValues } from './custom-fields.ts';
import { markdownField, wantsPreview } from './markdown-field.ts';
import type { TicketView } from './ticket-view.ts';

type Screen = TransitionScreens['transitions'][number];
type Asker = Pick<PagePost, 'request' | 'session'>;

const takeHref = (key: string) => `${ticketHref(key)}/transition`;
const screenHref = (key: string, id: string) => `${ticketHref(key)}/transition/${encodeURIComponent(id)}`;
const asksAnything = (t: Screen) => t.asks.resolution || t.asks.assignee || t.asks.fields.length > 0;

/** The transitions the member can take now, with their screens (list_transition_screens, web-only). */
async function screensOf(deps: PagesDeps, asker: Asker, key: string) {
  return runAsMember<TransitionScreens>(deps, asker, 'list_transition_screens', { params: { key } });
}

/**
 * The ticket page's Workflow section: a transition that asks nothing is a button that takes it;
 * one whose screen asks for something leads to its form.
 */
export async function workflowSection(view: TicketView): Promise<Html> {
  const screens = await screensOf(view.deps, view, view.ticket.key);
  const transitions = screens.ok ? screens.value.transitions : [];
  const shown = transitions.length
    ? html`<ul class="transitions" id="transitions">${transitions.map(
        (t) =>
          html`<li>${
            asksAnything(t)
              ? linkButton(`${t.name}…`, screenHref(view.ticket.key, t.id))
              : form(
                  view.session,
                  takeHref(view.ticket.key),
                  html`<input type="hidden" name="transition" value="${t.id}">${button(t.name, { kind: 'secondary' })}`,
                  {
                    className: 'inline',
                    label: `${t.name}: move to ${t.to_status}`,
                  },
                )
          }</li>`,
      )}</ul>`
    : html`<p class="muted" id="transitions">No transition you can take now.</p>`;
  return html`<section aria-labelledby="workflow-title"><h2 id="workflow-title">Workflow</h2>${shown}</section>`;
}

async function screenForm(
  deps: PagesDeps,
  request: FastifyRequest,
  session: Session,
  ticket: { key: string; project: string | null },
  screens: TransitionScreens,
  screen: Screen,
  state: FormState | undefined,
): Promise<Html> {
  const ctx = await readContext(deps, session, request.id, request.log);
  const project = ticket.project ? await describeProject(ctx, ticket.project).catch(() => null) : null;
  const resolution = screen.asks.resolution
    ? field({
        name: 'resolution',
        label: 'Resolution',
        type: 'select',
        state,
        // left at the default, the transition keeps the ticket's resolution or gives the project's default
        choices: [{ value: '', label: 'The default' }, ...screens.resolutions.map((r) => ({ value: r, label: r }))],
      })
    : '';
  const assignee = screen.asks.assignee
    ? field({
        name: 'assignee',
        label: 'Assignee',
        type: 'select',
        optional: true,
        state,
        choices: [
          { value: '', label: 'Leave as it is' },
          ...(project?.assignable_users ?? []).map((p) => ({ value: p.id, label: p.name })),
        ],
      })
    : '';
  // a comment only where the member may write one; an internal note only where they are the helpdesk's agent
  const comment = screens.comment.allowed
    ? markdownField(session, { name: 'comment', label: 'Comment', hint: 'Markdown; added with the move.', optional: true, state })
    : '';
  const internal = screens.comment.internal
    ? field({ name: 'comment_internal', label: 'Internal note: never shown to customers', type: 'checkbox', state })
    : '';
  const content = html`<input type="hidden" name="transition" value="${screen.id}"><input type="hidden" name="screen" value="yes">
${resolution}${assignee}${customFieldInputs(screen.asks.fields, state)}
${comment}${internal}
<div class="form-actions">${button(screen.name)} <a class="btn secondary" href="${ticketHref(ticket.key)}">Cancel</a></div>`;
  return form(session, takeHref(ticket.key), content, { id: 'transition-screen', state });
}

async function showScreen(
  deps: PagesDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  key: string,
  id: string,
  state: FormState | undefined,
  status = 200,
): Promise<FastifyReply> {
  const screens = await screensOf(deps, { request, session }, key);
  if (!screens.ok) return memberErrorPage(reply, deps, session, screens.error.status, screens.error.message);
  const screen = screens.value.transitions.find((t) => t.id === id);
  const ctx = await readContext(deps, session, request.id, request.log);
  const ticket = await getTicket(ctx, key);
  if (!screen) {
    const can = screens.value.transitions.map((t) => t.name).join(', ') || 'none';
    return memberErrorPage(reply, deps, session, 422, `That transition cannot be taken on ${ticket.key} now. You can take: ${can}.`);
  }
  const title = `${screen.name}: ${ticket.key}`;
  const body = html`<div class="card"><h1>${title}</h1><p>${ticketLink(ticket.key)} ${ticket.summary} moves from <strong>${ticket.status?.name ?? '—'}</strong> to <strong>${screen.to_status}</strong>.</p>
${await screenForm(deps, request, session, ticket, screens.value, screen, state)}</div>`;
  return sendMemberPage(
    request,
    reply,
    deps,
    session,
    {
      title,
      body,
      section: 'home',
      crumbs: [
        ...(ticket.project ? [{ label: ticket.project, href: `/projects/${encodeURIComponent(ticket.project)}` }] : []),
        { label: ticket.key, href: ticketHref(ticket.key) },
        { label: screen.name },
      ],
    },
    status,
  );
}

/**
 * Taking a transition through transition_ticket: a button on the ticket page, or the form of its
 * screen (resolution, assignee, fields, comment). A refusal is said with its reason: at the
 * screen's field or top, or — for a button — where the member is.
 */
export function transitionRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/browse/:key/transition/:id', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key, id } = request.params as { key: string; id: string };
    return showScreen(deps, request, reply, session, key, id, undefined);
  });

  app.post('/browse/:key/transition', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key } = request.params as { key: string };
    const id = typeof post.values.transition === 'string' ? post.values.transition : '';
    const sent: FormState = { ...EMPTY_FORM, values: post.values };
    const fromScreen = post.values.screen === 'yes';
    const screens = await screensOf(deps, post, key);
    const screen = screens.ok ? screens.value.transitions.find((t) => t.id === id) : undefined;
    if (wantsPreview(sent)) return showScreen(deps, request, reply, post.session, key, id, sent);
    const body = formInput(deps.registry.byName.get('transition_ticket')!.body!, post.values);
    const fields = screen ? customFieldValues(screen.asks.fields, post.values) : undefined;
    if (fields) body.fields = fields;
    const outcome = await runAsMember<Ticket>(deps, post, 'transition_ticket', { params: { key }, body });
    if (!outcome.ok) {
      const names = [
        'resolution',
        'assignee',
        'comment',
        'comment_internal',
        ...(screen?.asks.fields ?? []).map((f) => customFieldName(f.key)),
      ];
      const state = refusedForm(outcome.error, post.values, names);
      if (!screen || outcome.error.status === 404 || outcome.error.status === 403) return answerRefused(reply, deps, post, outcome.error);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => showScreen(deps, request, reply, post.session, key, id, state, status),
        ...(fromScreen && screens.ok
          ? {
              fragment: async () => {
                const ctx = await readContext(deps, post.session, request.id, request.log);
                return screenForm(deps, request, post.session, await getTicket(ctx, key), screens.value, screen, state);
              },
            }
          : {}),
      });
    }
    const ticket = outcome.value;
    return answerDone(reply, deps, post, {
      to: ticketHref(ticket.key),
      flash: {
        kind: 'success',
        text: `${ticket.key} is now ${ticket.status?.name ?? 'moved'}${ticket.resolution ? ` (${ticket.resolution})` : ''}.`,
      },
    });
  });
}
