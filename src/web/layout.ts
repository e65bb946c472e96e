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
pre.text{white-space:pre-wrap;font:inherit;background:#f6f7f9;padding:.6rem;border-radius:6px}
`;

/** The stylesheet's hash, so the CSP can allow exactly it and nothing else inline. */
export const STYLE_HASH = `sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}`;

export interface Viewer {
  name: string;
  isAdmin: boolean;
  logoutCsrf: string;
}

export function layout(title: string, body: Html, viewer?: Viewer): string {
  const nav = viewer
    ? html`<header><strong>Atrium</strong><a href="/agents">AI agents</a><a href="/agents/activity">What my agents did</a>${
        viewer.isAdmin ? html`<a href="/admin/settings">Settings</a><a href="/admin/audit">Audit log</a>` : ''
      }<form method="post" action="/logout"><input type="hidden" name="csrf" value="${viewer.logoutCsrf}"><span>${viewer.name}</span> <button type="submit">Log out</button></form></header>`
    : html`<header><strong>Atrium</strong></header>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Atrium</title><style>${new Html(STYLESHEET)}</style></head>
<body>${nav}<main>${body}</main></body></html>`.value;
}
