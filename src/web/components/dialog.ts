import { html, type Html } from '../html.ts';

/**
 * A modal dialog, closed until a script opens it (`showModal`); its Close button is a
 * `method="dialog"` form, so closing needs no script of ours. Titled for screen readers.
 */
export function dialog(id: string, title: string, content: Html, className = ''): Html {
  return html`<dialog id="${id}" aria-labelledby="${id}-title"${className ? html` class="${className}"` : ''}><h2 id="${id}-title">${title}</h2>${content}
<form method="dialog" class="dialog-close"><button type="submit" class="btn secondary">Close</button></form></dialog>`;
}
