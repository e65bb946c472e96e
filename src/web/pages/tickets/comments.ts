import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import { visibleProjects } from '../../../modules/projects/index.ts';
import { commentChoices, getTicket, mentionableMembers, type ScreenComment, type TicketDetail } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, field, form } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { EMPTY_FORM, formInput, refusedForm, type FormState } from '../../forms.ts';
import { html, type Html } from '../../html.ts';
import { personLink, ticketHref } from '../../links.ts';
import { readContext } from '../../read-context.ts';
import { requireSession } from '../../require-session.ts';
import { renderRichText } from '../../rich-text.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { markdownField, markdownTextarea, wantsPreview, type MarkdownFieldOptions } from './markdown-field.ts';
import { sentState, type ShowTicketPage, type TicketView } from './ticket-view.ts';

const FORM = 'comment';
const commentsHref = (key: string) => `${ticketHref(key)}/comments`;
const mentionsHref = (key: string) => `${ticketHref(key)}/mentions`;
/** The `@name` being typed at the end of the text, if any. */
const TYPED_MENTION = /(^|[^\w@.])@([A-Za-z0-9._-]+)$/;

/** The comment's textarea: as it is typed, htmx asks for the members its `@` could name. */
function bodyOptions(key: string, state: FormState | undefined, autofocus = false): MarkdownFieldOptions {
  const mentions = mentionsHref(key);
  return {
    name: 'body',
    label: 'Comment',
    hint: 'Markdown. Type @ and the start of a name to mention someone who can read the ticket: they are told.',
    state,
    autofocus,
    attributes: html` hx-get="${mentions}" hx-trigger="input changed delay:200ms" hx-target="#mention-choices" hx-swap="innerHTML" hx-sync="this:replace"${autofocus ? html` data-caret-end` : ''}`,
  };
}

/**
 * The form, offered only to a member who may comment, and its internal-note choice only to a
 * helpdesk's agent (ADR 0075). One sent back (refused: the permission went while the page was
 * open) is drawn again, so the refusal shows at it with the text kept.
 */
function commentForm(session: Session, ticket: TicketDetail, may: ScreenComment, state: FormState | undefined): Html {
  if (!may.allowed && state === undefined) return html``;
  const options = bodyOptions(ticket.key, state);
  const internal = may.internal
    ? field({ name: 'internal', label: 'Internal note: never shown to customers', type: 'checkbox', state })
    : '';
  const content = html`${markdownField(session, {
    ...options,
    after: html`<div id="mention-choices" class="mention-choices" aria-live="polite"></div>`,
  })}${internal}<div class="form-actions">${button('Add comment')}</div>`;
  return form(session, commentsHref(ticket.key), content, {
    id: 'comment-form',
    target: '#comments-section',
    state,
    label: 'Add a comment',
  });
}

function commentList(ticket: TicketDetail, view: Pick<TicketView, 'keys' | 'session'>): Html {
  return html`<div id="comments">${
    ticket.comments.length
      ? ticket.comments.map(
          (c) =>
            html`<div class="comment"><p><strong>${personLink(c.author, 'Someone')}</strong> <span class="muted">${shownTime(c.created_at, view.session.timezone)}${
              c.visibility === 'internal' ? ' · Internal note' : c.visibility === 'restricted' ? ' · Restricted' : ''
            }</span></p>${renderRichText(c.body, view.keys)}</div>`,
        )
      : html`<p class="muted">No comments.</p>`
  }</div>`;
}

/** The ticket page's Comments: oldest first, then the form that adds one (add_comment). */
export async function commentsSection(view: TicketView): Promise<Html> {
  // asked with write access, the access add_comment runs with; it writes nothing
  const ctx = await readContext(view.deps, view.session, view.request.id, view.request.log, 'write');
  const may = await commentChoices(ctx, view.ticket.key);
  return html`<section id="comments-section" aria-labelledby="comments-title"><h2 id="comments-title">Comments</h2>
${commentList(view.ticket, view)}
${commentForm(view.session, view.ticket, may, sentState(view, FORM))}</section>`;
}

async function freshView(deps: PagesDeps, request: FastifyRequest, session: Session, key: string) {
  const ctx = await readContext(deps, session, request.id, request.log);
  const [ticket, projects] = await Promise.all([getTicket(ctx, key), visibleProjects(ctx)]);
  return { deps, request, session, ticket, keys: new Set(projects.map((p) => p.key)) };
}

function mentionChoices(key: string, members: readonly { username: string; name: string }[]): Html {
  if (!members.length) return html``;
  const complete = `${mentionsHref(key)}/complete`;
  return html`<p class="hint">Mention:</p><ul class="choices-list">${members.map(
    (m) =>
      html`<li><button type="button" class="btn secondary" hx-get="${complete}" hx-include="#field-body" hx-vals="${JSON.stringify({ username: m.username })}" hx-target="#field-body" hx-swap="outerHTML">${m.name} @${m.username}</button></li>`,
  )}</ul>`;
}

/**
 * Adding a comment (add_comment), with its preview; and the `@` completion: the members who can
 * read the ticket whose name or username begins with what was typed (htmx, GET), and the text
 * with the chosen `@username` put in place of what was typed.
 */
export function commentRoutes(app: FastifyInstance, deps: PagesDeps, showPage: ShowTicketPage): void {
  app.post('/browse/:key/comments', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { key } = request.params as { key: string };
    const section = async (state: FormState | undefined) =>
      commentsSection({ ...(await freshView(deps, request, post.session, key)), sent: state ? { name: FORM, state } : undefined });
    const sent: FormState = { ...EMPTY_FORM, values: post.values };
    if (wantsPreview(sent)) {
      if (post.htmx) return reply.type('text/html; charset=utf-8').send((await section(sent)).value);
      return showPage(request, reply, post.session, key, { name: FORM, state: sent });
    }
    const body = formInput(deps.registry.byName.get('add_comment')!.body!, post.values);
    const outcome = await runAsMember(deps, post, 'add_comment', { params: { key }, body });
    if (!outcome.ok) {
      const state = refusedForm(outcome.error, post.values, ['body', 'internal']);
      if (outcome.error.status === 404) return answerRefused(reply, deps, post, outcome.error);
      return answerRefused(reply, deps, post, outcome.error, {
        page: (status) => showPage(request, reply, post.session, key, { name: FORM, state }, status),
        fragment: () => section(state),
      });
    }
    return answerDone(reply, deps, post, {
      to: `${ticketHref(key)}#comments-section`,
      flash: { kind: 'success', text: `Comment added to ${key.toUpperCase()}.` },
      fragment: () => section(undefined),
    });
  });

  app.get('/browse/:key/mentions', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key } = request.params as { key: string };
    const text = String((request.query as { body?: unknown }).body ?? '');
    const typed = TYPED_MENTION.exec(text)?.[2];
    if (!typed) return reply.type('text/html; charset=utf-8').send('');
    try {
      const ctx = await readContext(deps, session, request.id, request.log);
      const members = await mentionableMembers(ctx, key, typed);
      return reply.type('text/html; charset=utf-8').send(mentionChoices(key, members).value);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return reply.code(error.status).type('text/html; charset=utf-8').send('');
      throw error;
    }
  });

  app.get('/browse/:key/mentions/complete', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const { key } = request.params as { key: string };
    const query = request.query as { body?: unknown; username?: unknown };
    const text = String(query.body ?? '');
    const username = String(query.username ?? '').replace(/[^A-Za-z0-9._-]/g, '');
    const completed = username ? text.replace(TYPED_MENTION, (_all, before: string) => `${before}@${username} `) : text;
    const state: FormState = { ...EMPTY_FORM, values: { body: completed } };
    const textarea = markdownTextarea(bodyOptions(key, state, true));
    const cleared = html`<div id="mention-choices" hx-swap-oob="innerHTML"></div>`;
    return reply.type('text/html; charset=utf-8').send(html`${textarea}${cleared}`.value);
  });
}
