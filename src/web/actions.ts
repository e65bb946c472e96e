import type { FastifyReply, FastifyRequest } from 'fastify';
import { fromDatabase } from '../core/database-errors.ts';
import { ApiError } from '../core/errors.ts';
import { admissionRefusal, runOperation, type Principal } from '../core/execute.ts';
import { readSettings, type WorkspaceSettings } from '../core/settings.ts';
import { validateInput, type InputParts } from '../core/validation.ts';
import { flashMessage, type Flash } from './components/flash-message.ts';
import { leaveFlash } from './flash.ts';
import { formValues, type FormValues } from './forms.ts';
import { html, type Html } from './html.ts';
import { errorPage, memberErrorPage, memberViewer } from './respond.ts';
import { currentSession, foreignOrigin, formTokenMatches, type PagesDeps, type Session } from './session.ts';

/**
 * How a page runs an operation: as the logged-in member in person — no token, write access, the
 * `web` door — through the registry's runOperation, with the input checked by the validators the
 * other doors use. The same policy, history (with no agent's name), events, search indexing and
 * errors as REST and MCP.
 */
export function memberPrincipal(session: Session, settings: WorkspaceSettings): Principal {
  return {
    actor: { memberId: session.memberId, name: session.name, isAdmin: session.isAdmin },
    agent: { tokenId: `session:${session.hash}`, kind: 'session', name: null, access: 'write' },
    settings,
  };
}

export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: ApiError };

/** A POST the member's page made, checked: who, what the form held, and whether htmx sent it. */
export interface PagePost {
  request: FastifyRequest;
  session: Session;
  values: FormValues;
  /** Sent by htmx: answered with the changed fragment, not a redirect. */
  htmx: boolean;
}

/**
 * Runs the operation `name` for the member. A refusal the member can act on (the module is off,
 * the input is wrong, the policy says no, the thing is gone) comes back as an ApiError; anything
 * else is thrown, for the error handler to log and answer 500.
 */
export async function runAsMember<T = unknown>(
  deps: PagesDeps,
  post: Pick<PagePost, 'request' | 'session'>,
  name: string,
  parts: Partial<InputParts>,
): Promise<Outcome<T>> {
  const op = deps.registry.byName.get(name);
  if (!op) throw new Error(`a page runs ${name}, which no module declares`);
  const principal = memberPrincipal(post.session, await readSettings(deps.db));
  try {
    const refused = admissionRefusal(op, principal);
    if (refused) throw refused;
    const input = validateInput(op, { params: parts.params ?? {}, query: parts.query ?? {}, body: parts.body ?? {} });
    const value = await runOperation(deps.runtime, op, principal, input, {
      door: 'web',
      requestId: post.request.id,
      log: post.request.log,
    });
    return { ok: true, value: value as T };
  } catch (caught) {
    const error = caught instanceof ApiError ? caught : fromDatabase(caught);
    if (error) return { ok: false, error };
    throw caught;
  }
}

const isHtmx = (request: FastifyRequest) => request.headers['hx-request'] === 'true';

/** Where a member whose session ended goes: log in, then back to the page the form was on. */
function backTo(request: FastifyRequest): string {
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    try {
      const url = new URL(referer);
      if (url.host === request.host) return url.pathname + url.search;
    } catch {
      // not an address: home
    }
  }
  return '/';
}

/**
 * Every POST of the member's pages: a session (else off to log in), the request from this site
 * (`Origin`), and the form's CSRF token — in the `csrf` field, or for htmx requests that are no
 * form the `X-CSRF-Token` header — bound to this session and this action. Null when refused (the
 * answer is sent).
 */
export async function acceptPost(request: FastifyRequest, reply: FastifyReply, deps: PagesDeps): Promise<PagePost | null> {
  const htmx = isHtmx(request);
  const session = await currentSession(request, deps);
  if (!session) {
    const login = `/login?return_to=${encodeURIComponent(backTo(request))}`;
    if (htmx) reply.code(401).header('HX-Redirect', login).send();
    else reply.redirect(login, 303);
    return null;
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  const presented = request.headers['x-csrf-token'] ?? body.csrf;
  if (foreignOrigin(request, deps) || !formTokenMatches(session, request.url, presented)) {
    const message = 'This form has expired or did not come from this site. Open the page again and send it from there.';
    if (htmx) sayWhere(reply, 403, { kind: 'error', text: message });
    else errorPage(reply, 403, message, await memberViewer(deps, session));
    return null;
  }
  return { request, session, values: formValues(body), htmx };
}

/** An htmx answer said at the top of the page (`#flash`), whatever element asked. */
function sayWhere(reply: FastifyReply, status: number, flash: Flash): FastifyReply {
  return reply
    .code(status)
    .header('HX-Retarget', '#flash')
    .header('HX-Reswap', 'innerHTML')
    .type('text/html; charset=utf-8')
    .send(flashMessage(flash).value);
}

export interface Done {
  /** Where a browser without script goes next (303), with `flash` shown there. */
  to: string;
  flash: Flash;
  /** With htmx: the changed fragment. Without one, htmx goes to `to` as well. */
  fragment?: () => Promise<Html> | Html;
}

/** A change made: htmx gets the changed fragment (and the flash beside it); a plain form, POST → 303 → GET with the flash. */
export async function answerDone(reply: FastifyReply, deps: PagesDeps, post: PagePost, done: Done): Promise<FastifyReply> {
  if (post.htmx && done.fragment) {
    const fragment = await done.fragment();
    const said = html`<div hx-swap-oob="innerHTML:#flash">${flashMessage(done.flash)}</div>`;
    return reply.code(200).type('text/html; charset=utf-8').send(html`${fragment}${said}`.value);
  }
  await leaveFlash(deps, reply, post.session, { kind: 'notice', flash: done.flash });
  if (post.htmx) return reply.code(200).header('HX-Redirect', done.to).send();
  return reply.redirect(done.to, 303);
}

export interface Refused {
  /** The form again, with what was typed and the error at its field: the whole page, and the fragment htmx swaps. */
  page?: (status: number) => Promise<FastifyReply>;
  fragment?: () => Promise<Html> | Html;
}

/**
 * A change refused: back at its form where the page has one (422 at the field, anything else at
 * the form's top), with what the member typed; otherwise said where the member is (htmx) or on
 * the error page, with where to go from there. Nothing was changed.
 */
export async function answerRefused(
  reply: FastifyReply,
  deps: PagesDeps,
  post: PagePost,
  error: ApiError,
  refused: Refused = {},
): Promise<FastifyReply> {
  const status = error.status >= 400 && error.status < 500 ? error.status : 422;
  if (post.htmx) {
    if (refused.fragment)
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send((await refused.fragment()).value);
    return sayWhere(reply, status, { kind: 'error', text: error.message });
  }
  if (refused.page) return refused.page(status);
  return memberErrorPage(reply, deps, post.session, status, error.message);
}
