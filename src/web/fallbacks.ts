import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { internalErrorMessage } from '../core/errors.ts';
import { html } from './html.ts';
import { layout } from './layout.ts';
import { errorPage, memberViewer, sendPage } from './respond.ts';
import { currentSession, type WebDeps } from './session.ts';

/**
 * What answers outside every route (but /api/v1, which has its own envelope): a page for a
 * person's browser, the OAuth server's JSON for machine clients — so a mistyped page address
 * never shows a browser raw JSON, and a program never has to read HTML.
 */

/** Paths of machine clients: they answer JSON whatever the client accepts. */
const MACHINE_PATHS = /^\/(api|mcp|oauth|\.well-known)(\/|$)/;

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '/';

/** A browser asking for a page: not a machine path, and `Accept` names text/html (curl's `*\/*` does not). */
function wantsPage(request: FastifyRequest): boolean {
  return !MACHINE_PATHS.test(pathOf(request)) && /\btext\/html\b/i.test(request.headers.accept ?? '');
}

export function notFoundHandler(deps: WebDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (!wantsPage(request)) return reply.code(404).send({ error: 'not_found', error_description: 'No such endpoint' });
    const session = await currentSession(request, deps);
    const body = html`<div class="card"><h1>There is no page here</h1>
<p id="not-found">Nothing is found at <code>${pathOf(request)}</code>. The address may be mistyped, or what it showed is gone.</p>
<h2>Where to go from here</h2>
${
  session
    ? html`<ul><li>Go to <a href="/">your home page</a>: your projects, boards and the tickets assigned to you.</li><li>Search for what you were looking for with the box at the top of the page.</li></ul>`
    : html`<p><a href="/login">Log in</a> to find your way from your home page.</p>`
}</div>`;
    return sendPage(reply, layout('Not found', body, session ? await memberViewer(deps, session) : undefined), 404);
  };
}

/**
 * Errors on the pages and on unknown paths: a request that could not be read (a body that is not
 * what it claims) is the client's 4xx, in the form the client reads; anything else is ours,
 * logged and answered 500 with the request id.
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = error.statusCode;
  // a page route's error is shown as a page; on an unknown path the client's Accept decides, as for the 404
  const page = request.is404 ? wantsPage(request) : !MACHINE_PATHS.test(pathOf(request));
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (!page)
      return reply.code(status).send({
        error: 'invalid_request',
        error_description: 'The request body could not be read; send form-encoded parameters or a JSON object',
      });
    return errorPage(reply, status, 'This request could not be read. Open the page again and send its form from there.');
  }
  request.log.error({ err: error }, 'unexpected error on a page');
  if (!page) return reply.code(500).send({ error: 'server_error', error_description: 'Something went wrong on our side' });
  return errorPage(reply, 500, `${internalErrorMessage(request.id)}.`);
}
