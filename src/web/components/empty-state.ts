import { html, type Html } from '../html.ts';

/** What a list says when it has nothing: what would be here, and what the member can do about it. */
export function emptyState(id: string, title: string, text?: string | Html, action?: Html): Html {
  return html`<div class="empty" id="${id}"><p class="empty-title">${title}</p>${text ? html`<p>${text}</p>` : ''}${action ?? ''}</div>`;
}
