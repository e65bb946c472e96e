import { READ_ONLY_MESSAGE } from '../core/settings.ts';
import { assetHref, type AssetName } from './assets.ts';
import { breadcrumbs, type Crumb } from './components/breadcrumbs.ts';
import { dialog } from './components/dialog.ts';
import { flashMessage, type Flash } from './components/flash-message.ts';
import { html, Html } from './html.ts';
import type { NavItem, Section } from './navigation.ts';

export interface Viewer {
  name: string;
  isAdmin: boolean;
  /** Unread notifications: the count beside "Notifications" in the header. */
  unread: number;
  logoutCsrf: string;
  /** The modules the member may use, in the header; null on the pages that show none (OAuth's). */
  nav: readonly NavItem[] | null;
  /** The operator made the workspace read-only: every page says so above its content. */
  readOnly: boolean;
}

/**
 * What a page shows, for the live updates: `ticket:<key>`, `board:<number>`, `notifications`. A
 * logged-in page naming nothing still hears its unread count.
 */
export type LiveTopic = `ticket:${string}` | `board:${number}` | 'notifications' | 'me';

export interface PageOptions {
  /** `null`: a page that runs no script at all (the OAuth consent page, where nothing may act for the member). */
  live?: LiveTopic | null;
  /** Where the page sits below home; none on home itself. */
  crumbs?: readonly Crumb[];
  /** What the last action did, said at the top of the page. */
  flash?: Flash | null;
  /** The header's module this page belongs to (`aria-current`). */
  section?: Section;
  /** What the search box shows (the search page's own query). */
  query?: string;
  /** Scripts beyond htmx and app.js (SortableJS on a page that drags). */
  scripts?: readonly AssetName[];
}

/**
 * htmx as the pages use it: nothing evaluated (the CSP forbids it anyway), no inline indicator
 * styles, and a refused change (422, 403, 404, 409) swapped in like a success — the server sends
 * the form with its errors, or says where to look.
 */
const HTMX_CONFIG = JSON.stringify({
  allowEval: false,
  allowScriptTags: false,
  includeIndicatorStyles: false,
  selfRequestsOnly: true,
  historyCacheSize: 0,
  responseHandling: [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '4..', swap: true, error: false },
    { code: '...', swap: false, error: true },
  ],
});

function header(viewer: Viewer, options: PageOptions): Html {
  const current = (section: Section) => (options.section === section ? html` aria-current="page"` : '');
  const modules = viewer.nav ?? [];
  return html`<header class="site-header">
<a class="home" href="/">Atrium</a>
<nav aria-label="Modules"><ul>${modules.map((item) => html`<li><a href="${item.href}"${current(item.section)}>${item.label}</a></li>`)}</ul></nav>
<form class="search" role="search" method="get" action="/search"><label for="site-search" class="visually-hidden">Search tickets, pages${
    modules.some((m) => m.section === 'crm') ? ' and contacts' : ''
  }</label><input type="search" id="site-search" name="q" value="${options.query ?? ''}" placeholder="Search" aria-keyshortcuts="/"></form>
<div class="account">
<a href="/tickets/new" data-shortcut="c" aria-keyshortcuts="c">Create ticket</a>
<button type="button" class="link" data-opens="palette" aria-keyshortcuts="Control+K Meta+K" hidden>Go to…</button>
<a href="/notifications"${current('notifications')}>Notifications <span id="unread-count" class="count"${viewer.unread ? '' : new Html(' hidden')}>${String(viewer.unread)}</span></a>
<a href="/agents"${current('agents')}>AI agents</a><a href="/agents/activity"${current('activity')}>What my agents did</a>${
    viewer.isAdmin
      ? html`<a href="/admin/settings"${current('settings')}>Settings</a><a href="/admin/audit"${current('audit')}>Audit log</a>`
      : ''
  }
<form method="post" action="/logout"><input type="hidden" name="csrf" value="${viewer.logoutCsrf}"><span>${viewer.name}</span> <button type="submit" class="link">Log out</button></form>
</div></header>`;
}

/** The command palette and the shortcuts list: closed dialogs that app.js opens (Ctrl/Cmd+K, `?`). */
function dialogs(): Html {
  const palette = dialog(
    'palette',
    'Go to or create',
    html`<form role="search" method="get" action="/search"><label for="palette-q">A ticket key, board, page or person</label>
<input type="search" id="palette-q" name="q" autocomplete="off" hx-get="/palette" hx-trigger="input changed delay:150ms, search" hx-target="#palette-results" hx-swap="innerHTML"></form>
<ul id="palette-results" aria-live="polite"><li><a href="/tickets/new"><span class="kind">Create</span> Create a ticket</a></li></ul>`,
    'palette',
  );
  const keys = dialog(
    'shortcuts',
    'Keyboard shortcuts',
    html`<dl class="shortcuts"><dt><kbd>Ctrl</kbd> + <kbd>K</kbd> or <kbd>⌘</kbd> + <kbd>K</kbd></dt><dd>Go to a ticket, board, page or person, or create</dd>
<dt><kbd>c</kbd></dt><dd>Create a ticket</dd><dt><kbd>/</kbd></dt><dd>Search</dd><dt><kbd>?</kbd></dt><dd>This list</dd></dl>
<p class="muted">Single keys do nothing while you type in a field.</p>`,
  );
  return html`${palette}${keys}`;
}

/** Said on every page of a read-only workspace, before anything on it is tried and refused. */
function readOnlyBanner(): Html {
  return html`<div class="banner read-only" role="status" id="read-only"><p>${READ_ONLY_MESSAGE}.</p></div>`;
}

/** A whole page: the header for a logged-in member, breadcrumbs, the flash, the body, and the scripts. */
export function layout(title: string, body: Html, viewer?: Viewer, options: PageOptions = {}): string {
  const live = options.live === undefined ? 'me' : options.live;
  const scripted = viewer !== undefined && live !== null;
  const scripts: AssetName[] = scripted ? ['htmx', ...(options.scripts ?? []), 'app'] : [];
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Atrium</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="${assetHref('style')}">${
    scripted ? html`<meta name="htmx-config" content="${HTMX_CONFIG}">` : ''
  }${scripts.map((name) => html`<script src="${assetHref(name)}" defer></script>`)}</head>
<body${scripted ? html` data-events="${live}"` : ''}><a class="skip-link" href="#main">Skip to the content</a>
${viewer ? header(viewer, options) : html`<header class="site-header"><span class="home">Atrium</span></header>`}
<main id="main">${viewer?.readOnly ? readOnlyBanner() : ''}
${breadcrumbs(options.crumbs ?? [])}<div id="flash" aria-live="polite">${options.flash ? flashMessage(options.flash) : ''}</div>${body}</main>
${scripted ? dialogs() : ''}</body></html>`.value;
}
