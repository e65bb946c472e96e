import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { DEFAULT_TOKEN_LIFETIME, TOKEN_LIFETIMES } from '../../../auth/personal-tokens.ts';
import type { NewToken, Revoked } from '../../../modules/me/index.ts';
import { accessOf } from '../../../oauth/index.ts';
import type { Access } from '../../../policy/ability.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, emptyState, field, form, table } from '../../components/index.ts';
import { EMPTY_FORM, formInput, refusedForm, type FormState } from '../../forms.ts';
import { leaveFlash, takeFlash } from '../../flash.ts';
import { shownTime } from '../../format.ts';
import { html, type Html } from '../../html.ts';
import { sendMemberPage } from '../../respond.ts';
import type { PagesDeps, Session } from '../../session.ts';
import { requireSession } from '../../require-session.ts';

export function accessWords(access: Access): string {
  return access === 'write' ? 'Read and change' : 'Read';
}

function when(session: Session, value: string | null, never = 'never'): Html | string {
  return value === null ? never : (shownTime(value, session.timezone) ?? never);
}

async function agentsBody(deps: PagesDeps, session: Session, state: FormState, notice?: Html): Promise<Html> {
  const tokens = await deps.db
    .selectFrom('tokens')
    .select([
      'id',
      'name',
      'access',
      'created_at',
      'expires_at',
      'last_used_at',
      sql<boolean>`expires_at is not null and expires_at <= now()`.as('expired'),
    ])
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
  const revoke = (action: string, label: string) =>
    form(session, action, button('Revoke', { kind: 'danger', label }), { plain: true, className: 'inline' });
  const lifetimes = [
    ...TOKEN_LIFETIMES.map((days) => ({ value: String(days), label: `${days} days` })),
    { value: 'none', label: 'No expiry' },
  ];
  const createForm = html`${field({ name: 'name', label: 'Name', hint: 'Shown in history beside your name.', state, autocomplete: 'off' })}
${field({
  name: 'access',
  label: 'Access',
  type: 'select',
  state,
  value: 'read',
  choices: [
    { value: 'read', label: 'Read' },
    { value: 'write', label: 'Read and change' },
  ],
})}
${field({ name: 'lifetime', label: 'Lifetime', type: 'select', state, value: String(DEFAULT_TOKEN_LIFETIME), choices: lifetimes })}
<div class="form-actions">${button('Create token')}</div>`;
  return html`${notice ?? ''}
<div class="card"><h1>AI agents</h1>
<p class="muted">Agents act as you, with your permissions. Read access changes nothing; Read and change may do what you may do.</p>
<h2>Personal tokens</h2>
${
  tokens.length === 0
    ? emptyState('no-tokens', 'No personal tokens.', 'Create one below for an agent or a script that works as you.')
    : table(
        [
          { header: 'Name', cell: (t) => t.name },
          { header: 'Access', cell: (t) => accessWords(t.access) },
          { header: 'Expires', cell: (t) => (t.expired ? 'expired' : when(session, t.expires_at, 'no expiry')) },
          { header: 'Last used', cell: (t) => when(session, t.last_used_at) },
          { header: '', cell: (t) => revoke(`/agents/tokens/${t.id}/revoke`, `Revoke ${t.name}`) },
        ],
        tokens,
        { id: 'tokens', caption: 'Personal tokens', rowAttributes: (t) => html`data-token="${t.name}"` },
      )
}
<h2>Connected applications</h2>
${
  connections.length === 0
    ? emptyState('no-connections', 'No connected applications.', 'An application you allow on its consent page is listed here.')
    : table(
        [
          {
            header: 'Application',
            cell: (c) => html`${c.client_name ?? 'Unnamed application'} <span class="claim">name given by the application</span>`,
          },
          { header: 'Access', cell: (c) => accessWords(accessOf(c.scope)) },
          { header: 'Connected', cell: (c) => when(session, c.created_at) },
          { header: 'Last used', cell: (c) => when(session, c.last_used) },
          { header: '', cell: (c) => revoke(`/agents/connections/${c.id}/revoke`, `Revoke ${c.client_name ?? 'application'}`) },
        ],
        connections,
        { id: 'connections', caption: 'Connected applications', rowAttributes: (c) => html`data-connection="${c.client_name ?? ''}"` },
      )
}
</div>
<div class="card"><h2>Create a personal token</h2>
${form(session, '/agents/tokens', createForm, { plain: true, state })}</div>`;
}

async function showAgents(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PagesDeps,
  session: Session,
  state = EMPTY_FORM,
  status = 200,
): Promise<FastifyReply> {
  const left = status === 200 ? await takeFlash(deps, request, reply, session) : null;
  const notice =
    left?.kind === 'token-created'
      ? html`<div class="card" role="status"><h2>Token “${left.name}” created</h2>
<p>Copy it now: it is shown only this once.</p><p class="secret" id="new-token">${left.secret}</p></div>`
      : undefined;
  return sendMemberPage(
    request,
    reply,
    deps,
    session,
    {
      title: 'AI agents',
      body: await agentsBody(deps, session, state, notice),
      section: 'agents',
      crumbs: [{ label: 'AI agents' }],
      flash: left?.kind === 'notice' ? left.flash : null,
    },
    status,
  );
}

/** The member's AI agents page (spec 5.1): personal tokens and connected applications. */
export function agentsRoutes(app: FastifyInstance, deps: PagesDeps): void {
  app.get('/agents', async (request, reply) => {
    const session = await requireSession(request, reply, deps);
    if (!session) return reply;
    return showAgents(request, reply, deps, session);
  });

  app.post('/agents/tokens', async (request, reply) => {
    const post = await acceptPost(request, reply, deps);
    if (!post) return reply;
    const body = formInput(deps.registry.byName.get('create_personal_token')!.body!, post.values);
    const made = await runAsMember<NewToken>(deps, post, 'create_personal_token', { body });
    if (!made.ok) {
      const state = refusedForm(made.error, post.values, ['name', 'access', 'lifetime']);
      return answerRefused(reply, deps, post, made.error, {
        page: (status) => showAgents(request, reply, deps, post.session, state, status),
      });
    }
    // Redirect after POST, so a reload cannot make a second token; the secret waits for the next
    // page of this session only (never in the URL), and is gone once shown.
    const { name, secret } = made.value;
    await leaveFlash(deps, reply, post.session, { kind: 'token-created', name, secret });
    return reply.redirect('/agents', 303);
  });

  /** A Revoke button: its operation, said as done, or as done already. */
  const revokeRoute = (path: string, operation: 'revoke_personal_token' | 'revoke_connection') =>
    app.post(path, async (request, reply) => {
      const post = await acceptPost(request, reply, deps);
      if (!post) return reply;
      const { id } = request.params as { id: string };
      const outcome = await runAsMember<Revoked>(deps, post, operation, { params: { id } });
      if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
      const { name, revoked } = outcome.value;
      const text = revoked ? `Revoked “${name}”.` : `Nothing to revoke: “${name}” was revoked already.`;
      return answerDone(reply, deps, post, { to: '/agents', flash: { kind: 'success', text } });
    });

  revokeRoute('/agents/tokens/:id/revoke', 'revoke_personal_token');
  revokeRoute('/agents/connections/:id/revoke', 'revoke_connection');
}
