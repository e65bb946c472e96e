import { html, type Html } from '../html.ts';

export type FlashKind = 'success' | 'error' | 'info';

export interface Flash {
  kind: FlashKind;
  text: string;
}

/** A message about what just happened: an error is an alert, anything else a polite status. */
export function flashMessage(flash: Flash): Html {
  const role = flash.kind === 'error' ? 'alert' : 'status';
  return html`<div class="flash ${flash.kind}" role="${role}"><p>${flash.text}</p></div>`;
}
