import type { FastifyReply, FastifyRequest } from 'fastify';
import { readSettings, type WorkspaceSettings } from '../core/settings.ts';
import type { Crumb } from './components/breadcrumbs.ts';
import { takeFlash } from './flash.ts';
import { html, type Html } from './html.ts';
import { layout, type PageOptions, type Viewer } from './layout.ts';
import { navigation, usableModules, type NavItem } from './navigation.ts';
import { csrfToken, type Session, type WebDeps } from './session.ts';

export function sendPage(reply: FastifyReply, page: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page);
}

export function viewerOf(session: Session, settings: Pick<WorkspaceSettings, 'readOnly'>, nav: readonly NavItem[] | null = null): Viewer {
  return {
    name: session.name,
    isAdmin: session.isAdmin,
    unread: session.unread,
    logoutCsrf: csrfToken(session.cookie, 'logout'),
    nav,
    readOnly: settings.readOnly,
  };
}

/**
 * The member's header: the modules they may use (the switches, and the CRM's own roles), and
 * whether the workspace is read-only.
 */
export async function memberViewer(deps: WebDeps, session: Session): Promise<Viewer> {
  const settings = await readSettings(deps.db);
  return viewerOf(session, settings, navigation(await usableModules(deps.db, settings, session)));
}

export interface MemberPage extends PageOptions {
  title: string;
  body: Html;
}

/**
 * A page of the logged-in member: their header, the message the last form left (unless the page
 * took it itself and says what to show, `flash`), the page.
 */
export async function sendMemberPage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: WebDeps,
  session: Session,
  page: MemberPage,
  status = 200,
): Promise<FastifyReply> {
  const [viewer, left] = await Promise.all([
    memberViewer(deps, session),
    page.flash === undefined ? takeFlash(deps, request, reply, session) : null,
  ]);
  const flash = page.flash ?? (left?.kind === 'notice' ? left.flash : null);
  return sendPage(reply, layout(page.title, page.body, viewer, { ...page, flash }), status);
}

const HEADINGS: Record<number, string> = {
  400: 'This request could not be read',
  401: 'Log in first',
  403: 'You may not do this',
  404: 'There is nothing here',
  409: 'This changed while you were looking',
  422: 'This could not be done',
  429: 'Too many attempts',
  500: 'Something went wrong on our side',
};

function errorBody(status: number, message: string, loggedIn: boolean, help: Html | '' = ''): Html {
  const heading = HEADINGS[status] ?? HEADINGS[status >= 500 ? 500 : 400]!;
  const ways = loggedIn
    ? html`<ul>${help}<li>Go to <a href="/">your home page</a>: your projects, boards and the tickets assigned to you.</li><li>Search for what you were looking for with the box at the top of the page.</li></ul>`
    : html`<p><a href="/login">Log in</a> to find your way from your home page.</p>`;
  return html`<div class="card"><h1>${heading}</h1><p id="error-message">${message}</p><h2>Where to go from here</h2>${ways}</div>`;
}

/**
 * An error shown to the person in the browser: what happened and where to go. Never a redirect,
 * and no script (the OAuth flow's error pages among them).
 */
export function errorPage(reply: FastifyReply, status: number, message: string, viewer?: Viewer): FastifyReply {
  return sendPage(
    reply,
    layout(HEADINGS[status] ?? 'Error', errorBody(status, message, viewer !== undefined), viewer, { live: null }),
    status,
  );
}

/**
 * The same for a logged-in member's page: with their header, so every way on is one click away;
 * `help` (list items) comes first among the ways on, where the page knows a better one.
 */
export async function memberErrorPage(
  reply: FastifyReply,
  deps: WebDeps,
  session: Session,
  status: number,
  message: string,
  crumbs: readonly Crumb[] = [],
  help: Html | '' = '',
): Promise<FastifyReply> {
  const viewer = await memberViewer(deps, session);
  const body = errorBody(status, message, true, help);
  return sendPage(reply, layout(HEADINGS[status] ?? 'Error', body, viewer, { crumbs }), status);
}
