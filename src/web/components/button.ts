import { html, type Html } from '../html.ts';

export type ButtonKind = 'primary' | 'secondary' | 'danger';

export interface ButtonOptions {
  kind?: ButtonKind;
  type?: 'submit' | 'button';
  name?: string;
  value?: string;
  /** A name for a screen reader where the words alone are ambiguous (several "Revoke" buttons). */
  label?: string;
}

/** A button; its words are its accessible name unless `label` says more. */
export function button(text: string, options: ButtonOptions = {}): Html {
  const kind = options.kind ?? 'primary';
  return html`<button type="${options.type ?? 'submit'}" class="btn${kind === 'primary' ? '' : ` ${kind}`}"${options.name ? html` name="${options.name}"` : ''}${
    options.value !== undefined ? html` value="${options.value}"` : ''
  }${options.label ? html` aria-label="${options.label}"` : ''}>${text}</button>`;
}

/** A link that looks like a button: for going somewhere, never for changing anything. */
export function linkButton(text: string, href: string, kind: ButtonKind = 'secondary', shortcut?: string): Html {
  return html`<a class="btn${kind === 'primary' ? '' : ` ${kind}`}" href="${href}"${shortcut ? html` data-shortcut="${shortcut}" aria-keyshortcuts="${shortcut}"` : ''}>${text}</a>`;
}
