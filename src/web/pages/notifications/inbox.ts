import type { FastifyInstance } from 'fastify';
import type { EmailNotifications, UnreadCount } from '../../../modules/me/index.ts';
import { emailWanted, inbox, type InboxEntry } from '../../../notifications/inbox.ts';
import { acceptPost, answerDone, answerRefused, runAsMember, type PagePost } from '../../actions.ts';
import { button, emptyState, field, form } from '../../components/index.ts';
import { shownTime } from '../../format.ts';
import { html, Html } from '../../html.ts';
import { sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

function row(session: Session, entry: InboxEntry): Html {
  const by = entry.by
    ? html`${entry.by}${entry.via ? html` <span class="muted">through ${entry.via}</span>` : ''}`
    : html`<span class="muted">Atrium</span>`;
  const markRead = form(
    session,
    `/notifications/${entry.id}/read`,
    button('Mark read', { kind: 'secondary', label: `Mark read: ${entry.headline}` }),
    {
      className: 'inline',
      target: 'closest tr',
    },
  );
  return html`<tr class="${entry.read ? 'read' : 'unread'}" data-id="${entry.id}">
<td>${entry.read ? html`<span class="visually-hidden">read</span>` : html`<span class="count">new</span>`}</td>
<td data-label="What">${entry.link ? html`<a href="${new URL(entry.link).pathname}">${entry.headline}</a>` : entry.headline}${entry.detail ? html`<br><span class="muted">${entry.detail}</span>` : ''}${
    entry.emailError ? html`<br><span class="error">The email could not be sent: ${entry.emailError}</span>` : ''
  }</td>
<td data-label="By">${by}</td><td data-label="When" class="muted">${shownTime(entry.createdAt, session.timezone)}</td>
<td>${entry.read ? '' : markRead}</td></tr>`;
}

/** The list of notifications, with Mark all read: what htmx swaps after marking them all. */
function inboxCard(session: Session, entries: readonly InboxEntry[]): Html {
  const unread = entries.filter((e) => !e.read).length;
  const list = entries.length
    ? html`<table class="stack"><caption class="visually-hidden">Your notifications, unread first</caption><thead><tr><th scope="col"><span class="visually-hidden">State</span></th><th scope="col">What</th><th scope="col">By</th><th scope="col">When</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${entries.map(
        (e) => row(session, e),
      )}</tbody></table>`
    : emptyState(
        'empty',
        'Nothing yet.',
        'You are told here when a ticket you watch changes, when someone mentions you, and when a reminder comes due.',
      );
  const markAll = unread
    ? form(session, '/notifications/read-all', button('Mark all read', { kind: 'secondary' }), { target: '#inbox' })
    : '';
  return html`<div class="card" id="inbox"><h1>Notifications</h1>${markAll}${list}</div>`;
}

/** The header's unread count, swapped in beside the fragment. */
const unreadCount = (count: number) =>
  html`<span id="unread-count" class="count"${count ? '' : new Html(' hidden')} hx-swap-oob="true">${String(count)}</span>`;

async function emailCard(deps: PagesDeps, session: Session): Promise<Html> {
  const wanted = await emailWanted(deps.db, session.memberId);
  const content = html`${deps.mail ? '' : html`<p class="muted">This server sends no email: its operator has not configured delivery (SMTP_URL). The choice below applies once it does.</p>`}
${field({ name: 'email', label: 'Also send me each notification by email', type: 'checkbox', value: wanted ? 'on' : '' })}
<div class="form-actions">${button('Save')}</div>`;
  return html`<div class="card" id="email"><h2>Email</h2>${form(session, '/notifications/email', content, { plain: true })}</div>`;
}

/** /notifications: what the member was told (spec 6), unread first; mark read; email on or off. */
export function notificationRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/notifications', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const [entries, email] = await Promise.all([inbox(deps.db, session.memberId, deps.publicUrl), emailCard(deps, session)]);
    return sendMemberPage(request, reply, deps, session, {
      title: 'Notifications',
      body: html`${inboxCard(session, entries)}${email}`,
      live: 'notifications',
      section: 'notifications',
      crumbs: [{ label: 'Notifications' }],
    });
  });

  const entryOf = async (post: PagePost, id: string) =>
    (await inbox(deps.db, post.session.memberId, deps.publicUrl)).find((e) => e.id === id);

  app.post('/notifications/:id/read', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const { id } = request.params as { id: string };
    const outcome = await runAsMember<UnreadCount>(deps, post, 'mark_notification_read', { params: { id } });
    if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
    const entry = await entryOf(post, id.toLowerCase());
    return answerDone(reply, deps, post, {
      to: '/notifications',
      flash: { kind: 'success', text: entry ? `Marked read: ${entry.headline}.` : 'Marked read.' },
      fragment: () => html`${entry ? row(post.session, entry) : ''}${unreadCount(outcome.value.unread)}`,
    });
  });

  app.post('/notifications/read-all', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const outcome = await runAsMember<UnreadCount>(deps, post, 'mark_all_notifications_read', {});
    if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
    return answerDone(reply, deps, post, {
      to: '/notifications',
      flash: { kind: 'success', text: 'Every notification is marked read.' },
      fragment: async () => html`${inboxCard(post.session, await inbox(deps.db, post.session.memberId, deps.publicUrl))}${unreadCount(0)}`,
    });
  });

  app.post('/notifications/email', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    // a checkbox left unticked sends nothing: that is the answer no
    const body = { email: post.values.email === 'on' };
    const outcome = await runAsMember<EmailNotifications>(deps, post, 'set_email_notifications', { body });
    if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
    return answerDone(reply, deps, post, { to: '/notifications', flash: { kind: 'success', text: 'Saved.' } });
  });
}
