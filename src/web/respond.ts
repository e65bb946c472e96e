import type { FastifyReply } from 'fastify';
import { html } from './html.ts';
import { layout, type Viewer } from './layout.ts';
import { csrfToken, type Session } from './session.ts';

export function sendPage(reply: FastifyReply, page: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page);
}

/** An error shown to the person in the browser; never a redirect, and no script (the OAuth flow's error pages among them). */
export function errorPage(reply: FastifyReply, status: number, message: string, viewer?: Viewer): FastifyReply {
  return sendPage(reply, layout('Error', html`<div class="card"><h1>Something is wrong</h1><p class="error">${message}</p></div>`, viewer, null), status);
}

export function viewerOf(session: Session): Viewer {
  return { name: session.name, isAdmin: session.isAdmin, unread: session.unread, logoutCsrf: csrfToken(session.cookie, 'logout') };
}
