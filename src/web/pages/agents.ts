import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'kysely';
import { createPersonalToken, DEFAULT_TOKEN_LIFETIME, revokeToken, TOKEN_LIFETIMES, type TokenLifetime } from '../../auth/personal-tokens.ts';
import { toTimestamp } from '../../core/time.ts';
import { accessOf, revokeConnection } from '../../oauth/index.ts';
import type { Access } from '../../policy/ability.ts';
import { html, type Html } from '../html.ts';
import { leaveFlash, takeFlash } from '../flash.ts';
import { layout } from '../layout.ts';
import { errorPage, sendPage, viewerOf } from '../respond.ts';
import { csrfMatches, csrfToken, foreignOrigin, type Session, type WebDeps } from '../session.ts';
import { requireSession } from './guard.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_NAME = 100;

export function accessWords(access: Access): string {
  return access === 'write' ? 'Read and change' : 'Read';
}

function when(value: string | null, never = 'never'): string {
  return value === null ? never : toTimestamp(value).slice(0, 16).replace('T', ' ') + ' UTC';
}

async function agentsBody(deps: WebDeps, session: Session, notice?: Html): Promise<Html> {
  const csrf = csrfToken(session.cookie, 'agents');
  const tokens = await deps.db
    .selectFrom('tokens')
    .select(['id', 'name', 'access', 'created_at', 'expires_at', 'last_used_at', sql<boolean>`expires_at is not null and expires_at <= now()`.as('expired')])
    .where('member_id', '=', session.memberId)
    .where('kind', '=', 'personal')
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
  const connections = await deps.db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as c', 'c.client_id', 'g.client_id')
    .select([
      'g.id',
      'g.scope',
      'g.created_at',
      'c.client_name',
      sql<string | null>`greatest(g.last_used, (select max(t.last_used_at) from tokens t where t.grant_id = g.id))`.as('last_used'),
    ])
    .where('g.member_id', '=', session.memberId)
    .where('g.revoked_at', 'is', null)
    .orderBy('g.created_at', 'desc')
    .execute();
  const revokeButton = (action: string, label: string) =>
    html`<form method="post" action="${action}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="${label}">Revoke</button></form>`;
  return html`${notice ?? ''}
<div class="card"><h1>AI agents</h1>
<p class="muted">Agents act as you, with your permissions. Read access changes nothing; Read and change may do what you may do.</p>
<h2>Personal tokens</h2>
${
  tokens.length === 0
    ? html`<p id="no-tokens">No personal tokens.</p>`
    : html`<table id="tokens" class="stack"><thead><tr><th>Name</th><th>Access</th><th>Expires</th><th>Last used</th><th></th></tr></thead><tbody>${tokens.map(
        (t) =>
          html`<tr data-token="${t.name}"><td>${t.name}</td><td>${accessWords(t.access)}</td><td>${t.expired ? 'expired' : when(t.expires_at, 'no expiry')}</td><td>${when(t.last_used_at)}</td><td>${revokeButton(`/agents/tokens/${t.id}/revoke`, `Revoke ${t.name}`)}</td></tr>`,
      )}</tbody></table>`
}
<h2>Connected applications</h2>
${
  connections.length === 0
    ? html`<p id="no-connections">No connected applications.</p>`
    : html`<table id="connections" class="stack"><thead><tr><th>Application</th><th>Access</th><th>Connected</th><th>Last used</th><th></th></tr></thead><tbody>${connections.map(
        (c) =>
          html`<tr data-connection="${c.client_name ?? ''}"><td>${c.client_name ?? 'Unnamed application'} <span class="claim">name given by the application</span></td><td>${accessWords(accessOf(c.scope))}</td><td>${when(c.created_at)}</td><td>${when(c.last_used)}</td><td>${revokeButton(`/agents/connections/${c.id}/revoke`, `Revoke ${c.client_name ?? 'application'}`)}</td></tr>`,
      )}</tbody></table>`
}
</div>
<div class="card"><h2>Create a personal token</h2>
<form method="post" action="/agents/tokens">
<input type="hidden" name="csrf" value="${csrf}">
<label>Name (shown in history beside your name) <input type="text" name="name" maxlength="${MAX_NAME}" required></label>
<label>Access <select name="access"><option value="read">Read</option><option value="write">Read and change</option></select></label>
<label>Lifetime <select name="lifetime">${TOKEN_LIFETIMES.map((days) => (days === DEFAULT_TOKEN_LIFETIME ? html`<option value="${days}" selected>${days} days</option>` : html`<option value="${days}">${days} days</option>`))}<option value="none">No expiry</option></select></label>
<button type="submit">Create token</button>
</form></div>`;
}

async function showAgents(reply: FastifyReply, deps: WebDeps, session: Session, notice?: Html, status = 200): Promise<FastifyReply> {
  return sendPage(reply, layout('AI agents', await agentsBody(deps, session, notice), viewerOf(session)), status);
}

function parseLifetime(raw: unknown): TokenLifetime | undefined {
  if (raw === 'none') return null;
  const days = Number(raw);
  return (TOKEN_LIFETIMES as readonly number[]).includes(days) ? (days as TokenLifetime) : undefined;
}

/** The member's AI agents page (spec 5.1): personal tokens and connected applications. */
export function agentsRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/agents', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const created = await takeFlash(deps, session);
    const notice = created
      ? html`<div class="card" role="status"><h2>Token “${created.name}” created</h2>
<p>Copy it now: it is shown only this once.</p><p class="secret" id="new-token">${created.secret}</p></div>`
      : undefined;
    return showAgents(reply, deps, session, notice);
  });

  app.post('/agents/tokens', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    const form = (request.body ?? {}) as Record<string, unknown>;
    if (foreignOrigin(request, deps) || !csrfMatches(session.cookie, 'agents', form.csrf)) {
      return errorPage(reply, 403, 'This form has expired or did not come from this site.', viewerOf(session));
    }
    const name = typeof form.name === 'string' ? form.name.trim() : '';
    const access = form.access === 'write' ? 'write' : form.access === 'read' ? 'read' : undefined;
    const lifetimeDays = parseLifetime(form.lifetime);
    if (!name || name.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(name) || !access || lifetimeDays === undefined) {
      return showAgents(reply, deps, session, html`<div class="card error" role="alert">Give the token a name (up to ${MAX_NAME} characters), an access level and a lifetime.</div>`, 422);
    }
    const token = await createPersonalToken(deps.db, { memberId: session.memberId, name, access, lifetimeDays });
    // Redirect after POST, so a reload cannot make a second token; the secret waits for the next
    // page of this session only (never in the URL), and is gone once shown.
    await leaveFlash(deps, session, { kind: 'token-created', name, secret: token.secret });
    return reply.redirect('/agents', 303);
  });

  /** A revoke button's form: the member's own session and this page's CSRF token, or nothing happens. */
  const revokeRoute = (path: string, revoke: (memberId: string, id: string) => Promise<void>) =>
    app.post(path, async (request, reply) => {
      const session = await requireSession(request, reply, deps);
      if (!session) return reply;
      const form = (request.body ?? {}) as Record<string, unknown>;
      const { id } = request.params as { id: string };
      if (foreignOrigin(request, deps) || !csrfMatches(session.cookie, 'agents', form.csrf)) {
        return errorPage(reply, 403, 'This form has expired or did not come from this site.', viewerOf(session));
      }
      if (UUID.test(id)) await revoke(session.memberId, id);
      return reply.redirect('/agents', 303);
    });

  revokeRoute('/agents/tokens/:id/revoke', async (memberId, id) => {
    await revokeToken(deps.db, memberId, id);
  });

  revokeRoute('/agents/connections/:id/revoke', async (memberId, id) => {
    const grant = await deps.db.selectFrom('oauth_grants').select('id').where('id', '=', id).where('member_id', '=', memberId).executeTakeFirst();
    if (grant) await revokeConnection(deps.db, grant.id);
  });
}
