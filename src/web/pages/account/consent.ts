import type { Access } from '../../../policy/ability.ts';
import { button } from '../../components/index.ts';
import { html } from '../../html.ts';
import { layout, type Viewer } from '../../layout.ts';

export interface ConsentView {
  consentId: string;
  csrf: string;
  applicationName: string;
  redirectUri: string;
  requested: Access;
  resource: string;
  publicUrl: string;
  workspaceName: string;
  viewer: Viewer;
}

/** Where the member will be sent back: the host for web addresses, the scheme for an application's own. */
export function returnPlace(redirectUri: string): { label: string; value: string } {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(redirectUri)?.[1]?.toLowerCase() ?? '';
  if (scheme === 'https' || scheme === 'http') return { label: 'host', value: new URL(redirectUri).host };
  return { label: 'application link', value: `${scheme}:` };
}

function resourceWords(resource: string, publicUrl: string): string {
  if (resource === `${publicUrl}/mcp` || resource.startsWith(`${publicUrl}/mcp/`)) return 'the MCP server (agent access) of this workspace';
  if (resource.startsWith(`${publicUrl}/api`)) return 'the REST API of this workspace';
  return 'this workspace through the REST API and the MCP server';
}

/** The consent page (spec 5.2): the application's claimed name, where it returns, what it may do. */
export function renderConsent(view: ConsentView): string {
  const place = returnPlace(view.redirectUri);
  const body = html`<div class="card"><h1>Connect an application</h1>
<p><strong id="client-name">${view.applicationName}</strong> <span class="claim">name given by the application itself, not verified</span></p>
<p>wants to act as <strong>${view.viewer.name}</strong> in <strong>${view.workspaceName}</strong>, reaching ${resourceWords(view.resource, view.publicUrl)}.</p>
<p>After you answer you will be sent to the ${place.label} <strong id="return-host">${place.value}</strong>.</p>
${
  /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/?]/.test(view.redirectUri)
    ? html`<p class="muted" id="loopback-note">That address is on your own computer: allow this only if you just started this application yourself.</p>`
    : ''
}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="consent" value="${view.consentId}">
<input type="hidden" name="csrf" value="${view.csrf}">
<fieldset><legend>Access</legend>
<label><input type="radio" name="access" value="read"${view.requested === 'read' ? html` checked` : ''}> Read: see what you can see, change nothing</label>
${
  view.requested === 'write'
    ? html`<label><input type="radio" name="access" value="write" checked> Read and change: do what you may do</label>`
    : ''
}
</fieldset>
<p class="form-actions">${button('Allow', { name: 'decision', value: 'approve' })}
${button('Decline', { kind: 'secondary', name: 'decision', value: 'deny' })}</p>
</form></div>`;
  // no script on the page where a member grants access: nothing may act on it but their click
  return layout('Connect an application', body, view.viewer, { live: null });
}
