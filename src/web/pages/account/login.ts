import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifyPassword } from '../../../auth/passwords.ts';
import { button, field, flashMessage } from '../../components/index.ts';
import { html } from '../../html.ts';
import { layout } from '../../layout.ts';
import type { LoginThrottle } from '../../login-throttle.ts';
import {
  csrfMatches,
  csrfToken,
  currentSession,
  endSession,
  foreignOrigin,
  preSession,
  preSessionCookie,
  startSession,
  type WebDeps,
} from '../../session.ts';
import { errorPage, sendPage } from '../../respond.ts';

/** Where to go after logging in: a path on this site only, never another host (no open redirect); else the home page. */
export function safeReturnTo(raw: unknown): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character in a return path is refused
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || /[\x00-\x1f\\]/.test(raw)) {
    return '/';
  }
  return raw;
}

/** The log-in form; its CSRF token is bound to the anonymous browser's cookie. */
export function renderLogin(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: WebDeps,
  returnTo: string,
  problem?: string,
  status = 200,
): FastifyReply {
  const cookie = preSession(request, reply, deps);
  const body = html`<div class="card"><h1>Log in</h1>
${problem ? flashMessage({ kind: 'error', text: problem }) : ''}
<form method="post" action="/login">
<input type="hidden" name="csrf" value="${csrfToken(cookie, 'login')}">
<input type="hidden" name="return_to" value="${returnTo}">
${field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username' })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' })}
<div class="form-actions">${button('Log in')}</div>
</form></div>`;
  return sendPage(reply, layout('Log in', body), status);
}

export function loginRoutes(app: FastifyInstance, deps: WebDeps, throttle: LoginThrottle): void {
  app.get('/login', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const session = await currentSession(request, deps);
    if (session) return reply.code(303).redirect(safeReturnTo(query.return_to), 303);
    return renderLogin(request, reply, deps, safeReturnTo(query.return_to));
  });

  app.post('/login', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    const cookie = preSessionCookie(request, deps);
    if (foreignOrigin(request, deps) || !cookie || !csrfMatches(cookie, 'login', form.csrf)) {
      return errorPage(reply, 403, 'This form has expired or did not come from this site. Open the log-in page again.');
    }
    const returnTo = safeReturnTo(form.return_to);
    const email = typeof form.email === 'string' ? form.email.trim().toLowerCase() : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const wait = throttle.waitSeconds(request.ip, email);
    if (wait !== null) {
      reply.header('Retry-After', String(wait));
      return renderLogin(request, reply, deps, returnTo, `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`, 429);
    }
    const member = email
      ? await deps.db
          .selectFrom('members')
          .select(['id', 'password_hash'])
          .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
          .where('active', '=', true)
          .executeTakeFirst()
      : undefined;
    // Verify even without a member, so the answer takes as long either way.
    const ok = await verifyPassword(password, member?.password_hash ?? 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAA');
    if (!member || !ok) {
      throttle.fail(request.ip, email);
      return renderLogin(request, reply, deps, returnTo, 'The email address or password is wrong.', 401);
    }
    throttle.succeed(email);
    await startSession(reply, deps, member.id);
    return reply.redirect(returnTo, 303);
  });

  app.post('/logout', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    const session = await currentSession(request, deps);
    if (!session) return reply.redirect('/login', 303);
    if (foreignOrigin(request, deps) || !csrfMatches(session.cookie, 'logout', form.csrf)) {
      return errorPage(reply, 403, 'This form has expired or did not come from this site.');
    }
    await endSession(reply, deps, session);
    return reply.redirect('/login', 303);
  });
}
