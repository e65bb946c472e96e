import { createHash } from 'node:crypto';
import { html, Html } from './html.ts';

export const STYLESHEET = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
header a,header button{color:#fff;background:none;border:0;font:inherit;cursor:pointer;text-decoration:underline}
header form{margin:0 0 0 auto}
main{max-width:56rem;margin:1.5rem auto;padding:0 1.2rem}
.card{background:#fff;border:1px solid #d8dce3;border-radius:8px;padding:1.2rem;margin-bottom:1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #e4e7ec;vertical-align:top}
label{display:block;margin:.5rem 0}input[type=text],input[type=email],input[type=password],select{padding:.4rem;width:100%;max-width:24rem}
button{padding:.45rem .9rem;border-radius:6px;border:1px solid #3050b0;background:#3050b0;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#3050b0}
.claim{background:#fff4d6;border:1px solid #e0c070;padding:.1rem .4rem;border-radius:4px;font-size:.85em}
.secret{font-family:monospace;background:#eef6ee;border:1px solid #8c8;padding:.6rem;word-break:break-all}
.error{color:#a01010}.muted{color:#5a6270}
.count{display:inline-block;min-width:1.2em;padding:0 .35em;border-radius:1em;background:#d03a3a;color:#fff;font-size:.8em;text-align:center;text-decoration:none}
tr.unread td{font-weight:600}.inline{display:inline;margin:0}
pre.text{white-space:pre-wrap;font:inherit;background:#f6f7f9;padding:.6rem;border-radius:6px}
header .home{color:#fff;font-weight:700;text-decoration:none}
h1,h2,td,th,li,p,dd{overflow-wrap:anywhere}
.rich{overflow-wrap:anywhere}.rich pre{overflow-x:auto;background:#f6f7f9;padding:.6rem;border-radius:6px}.rich code{background:#f0f1f4;padding:0 .2em;border-radius:3px}.rich pre code{background:none;padding:0}
.rich table{width:auto}.rich blockquote{margin:0 0 0 .4rem;padding-left:.8rem;border-left:3px solid #d8dce3;color:#5a6270}.rich img{max-width:100%}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}.facts dt{font-weight:600}.facts dd{margin:0}
.comment,.worklog{border-top:1px solid #e4e7ec;padding-top:.4rem;margin-top:.4rem}
.board{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(13rem,1fr);gap:.8rem;overflow-x:auto;align-items:start;padding-bottom:.4rem}
.board .column{margin:0;min-width:0}.board .column h2{font-size:1.05rem;margin-top:0}.board ul{list-style:none;margin:0;padding:0}
.board-card{background:#f6f7f9;border:1px solid #e4e7ec;border-radius:6px;padding:.4rem .5rem;margin-bottom:.4rem}
.sprints{display:flex;flex-wrap:wrap;gap:.4rem .8rem;margin:.4rem 0 0;padding:0;list-style:none}.sprints [aria-current]{font-weight:700}
.tickets{list-style:none;padding:0;margin:0}.tickets li{padding:.3rem 0;border-bottom:1px solid #e4e7ec}
.change{display:block}.on{color:#1d7a3a}.off{color:#a01010}
@media (max-width:40rem){
main{padding:0 .6rem;margin:1rem auto}.card{padding:.8rem}
table.stack thead{display:none}table.stack tr{display:block;border-bottom:1px solid #d8dce3;padding:.3rem 0}
table.stack td{display:block;border:0;padding:.15rem 0}table.stack td:first-child{font-weight:600}
#tokens td:nth-child(2)::before,#connections td:nth-child(2)::before{content:"Access: "}#tokens td:nth-child(3)::before{content:"Expires: "}
#connections td:nth-child(3)::before{content:"Connected: "}#tokens td:nth-child(4)::before,#connections td:nth-child(4)::before{content:"Last used: "}
}
`;

/**
 * The one script of the pages: a page that names what it shows (`data-events` on <body>) listens
 * to /events and, when that changes, fetches itself again and swaps in its header and main — so a
 * ticket, a board or the notifications stay current while open, without a reload that would lose
 * the scroll. An `unread` event updates the header's count in place. A form being filled in is
 * not swapped away: the refresh waits until it loses focus.
 */
export const LIVE_SCRIPT = `(() => {
  const topic = document.body.dataset.events;
  if (!topic || !window.EventSource) return;
  let running = false, again = false;
  const busy = () => { const el = document.activeElement; return el && el.closest('main') && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && el.type !== 'submit'; };
  async function refresh() {
    if (running) { again = true; return; }
    if (busy()) { document.activeElement.addEventListener('blur', refresh, { once: true }); return; }
    running = true;
    try {
      const response = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (!response.ok) return;
      const next = new DOMParser().parseFromString(await response.text(), 'text/html');
      for (const part of ['header', 'main']) {
        const now = document.querySelector(part), fresh = next.querySelector(part);
        if (now && fresh) now.replaceWith(document.adoptNode(fresh));
      }
      document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
    } catch (_) {
    } finally {
      running = false;
      if (again) { again = false; refresh(); }
    }
  }
  const source = new EventSource('/events?topic=' + encodeURIComponent(topic));
  source.addEventListener('change', refresh);
  source.addEventListener('unread', (event) => {
    const count = document.getElementById('unread-count');
    if (count) { count.textContent = event.data; count.hidden = event.data === '0'; }
  });
  source.addEventListener('ready', () => { document.body.dataset.listening = 'yes'; });
})();`;

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

/** The stylesheet's and the script's hashes, so the CSP can allow exactly them and nothing else inline. */
export const STYLE_HASH = sha256(STYLESHEET);
export const SCRIPT_HASH = sha256(LIVE_SCRIPT);

/** The pages' icon: an "A" on the header's colour, so a tab is found among many. */
export const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d2330"/><path d="M9 25 16 7l7 18M11.8 18h8.4" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>';

export interface Viewer {
  name: string;
  isAdmin: boolean;
  /** Unread notifications: the count beside "Notifications" in the header. */
  unread: number;
  logoutCsrf: string;
}

/**
 * What a page shows, for the live updates: `ticket:<key>`, `board:<number>`, `notifications`. A
 * logged-in page naming nothing still hears its unread count.
 */
export type LiveTopic = `ticket:${string}` | `board:${number}` | 'notifications' | 'me';

/** `live: null`: a page that runs no script at all (the OAuth consent page, where nothing may act for the member). */
export function layout(title: string, body: Html, viewer?: Viewer, live: LiveTopic | null = 'me'): string {
  const nav = viewer
    ? html`<header><a class="home" href="/">Atrium</a><a href="/notifications">Notifications <span id="unread-count" class="count"${viewer.unread ? '' : new Html(' hidden')}>${String(viewer.unread)}</span></a><a href="/agents">AI agents</a><a href="/agents/activity">What my agents did</a>${
        viewer.isAdmin ? html`<a href="/admin/settings">Settings</a><a href="/admin/audit">Audit log</a>` : ''
      }<form method="post" action="/logout"><input type="hidden" name="csrf" value="${viewer.logoutCsrf}"><span>${viewer.name}</span> <button type="submit">Log out</button></form></header>`
    : html`<header><strong>Atrium</strong></header>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Atrium</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${new Html(STYLESHEET)}</style></head>
<body${viewer && live ? html` data-events="${live}"` : ''}>${nav}<main>${body}</main>${viewer && live ? html`<script>${new Html(LIVE_SCRIPT)}</script>` : ''}</body></html>`.value;
}
