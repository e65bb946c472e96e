import { isUuid } from '../../core/schema-kit.ts';
import type { FastifyInstance } from 'fastify';
import { toTimestamp } from '../../core/time.ts';
import { emailWanted, inbox, markAllRead, markRead, setEmailWanted, type InboxEntry } from '../../notifications/inbox.ts';
import { html, type Html } from '../html.ts';
import { layout } from '../layout.ts';
import { errorPage, sendPage, viewerOf } from '../respond.ts';
import { csrfMatches, csrfToken, foreignOrigin, type PagesDeps, type Session } from '../session.ts';
import { requireSession } from './guard.ts';

const when = (at: string) => toTimestamp(at).slice(0, 16).replace('T', ' ');

function row(entry: InboxEntry, csrf: string): Html {
  const by = entry.by ? html`${entry.by}${entry.via ? html` <span class="muted">through ${entry.via}</span>` : ''}` : html`<span class="muted">Atrium</span>`;
  return html`<tr class="${entry.read ? 'read' : 'unread'}" data-id="${entry.id}">
<td>${entry.read ? '' : html`<span class="count" title="unread">new</span>`}</td>
<td>${entry.link ? html`<a href="${new URL(entry.link).pathname}">${entry.headline}</a>` : entry.headline}${entry.detail ? html`<br><span class="muted">${entry.detail}</span>` : ''}${
    entry.emailError ? html`<br><span class="error">The email could not be sent: ${entry.emailError}</span>` : ''
  }</td>
<td>${by}</td><td class="muted">${when(entry.createdAt)}</td>
<td>${entry.read ? '' : html`<form class="inline" method="post" action="/notifications/${entry.id}/read"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary">Mark read</button></form>`}</td></tr>`;
}

async function page(deps: PagesDeps, session: Session, saved: boolean): Promise<string> {
  const [entries, wanted] = await Promise.all([inbox(deps.db, session.memberId, deps.publicUrl), emailWanted(deps.db, session.memberId)]);
  const csrf = csrfToken(session.cookie, 'notifications');
  const unread = entries.filter((e) => !e.read).length;
  const email = html`<div class="card"><h2>Email</h2>
${deps.mail ? '' : html`<p class="muted">This server sends no email: its operator has not configured delivery (SMTP_URL). The choice below applies once it does.</p>`}
<form method="post" action="/notifications/email"><input type="hidden" name="csrf" value="${csrf}">
<label><input type="checkbox" name="email" value="on"${wanted ? html` checked` : ''}> Also send me each notification by email</label>
<button type="submit">Save</button>${saved ? html` <span id="saved" role="status">Saved.</span>` : ''}</form></div>`;
  const list = entries.length
    ? html`<table><thead><tr><th></th><th>What</th><th>By</th><th>When</th><th></th></tr></thead><tbody>${entries.map((e) => row(e, csrf))}</tbody></table>`
    : html`<p class="muted" id="empty">Nothing yet. You are told here when a ticket you watch changes, when someone mentions you, and when a reminder comes due.</p>`;
  const body = html`<div class="card"><h1>Notifications</h1>
${unread ? html`<form method="post" action="/notifications/read-all"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary">Mark all read</button></form>` : ''}
${list}</div>${email}`;
  return layout('Notifications', body, viewerOf(session), 'notifications');
}

/** /notifications: what the member was told (spec 6), unread first; mark read; email on or off. */
export function notificationRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/notifications', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    return sendPage(reply, await page(deps, session, (request.query as { saved?: string }).saved === '1'));
  });

  /** The three forms share one CSRF purpose; each POST answers with the page again (303). */
  const post = (path: string, act: (session: Session, form: Record<string, unknown>, params: Record<string, string>) => Promise<string>) =>
    app.post(path, async (request, reply) => {
      const session = await requireSession(request, reply, deps);
      if (!session) return reply;
      const form = (request.body ?? {}) as Record<string, unknown>;
      if (foreignOrigin(request, deps) || !csrfMatches(session.cookie, 'notifications', form.csrf)) {
        return errorPage(reply, 403, 'This form has expired or did not come from this site.', viewerOf(session));
      }
      return reply.redirect(await act(session, form, request.params as Record<string, string>), 303);
    });

  post('/notifications/:id/read', async (session, _form, params) => {
    if (isUuid(params.id ?? '')) await markRead(deps.db, session.memberId, params.id!, deps.now());
    return '/notifications';
  });
  post('/notifications/read-all', async (session) => {
    await markAllRead(deps.db, session.memberId, deps.now());
    return '/notifications';
  });
  post('/notifications/email', async (session, form) => {
    await setEmailWanted(deps.db, session.memberId, form.email === 'on');
    return '/notifications?saved=1';
  });
}
