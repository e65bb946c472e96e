import type { FormState } from '../forms.ts';
import { html, type Html } from '../html.ts';
import { formToken, type Session } from '../session.ts';
import { flashMessage } from './flash-message.ts';

export interface FormOptions {
  id?: string;
  className?: string;
  /** Where htmx puts the answer (a CSS selector); the form itself by default. */
  target?: string;
  /** How htmx puts it (`outerHTML` by default: the answer is the form, or what replaces it). */
  swap?: string;
  /** Without htmx: a plain form (a log-out, a form that leaves the page anyway). */
  plain?: boolean;
  /** The form as the member left it: a problem no field answers for is said at its top. */
  state?: FormState;
  /** An accessible name for a form among several alike (a row's "Mark read"). */
  label?: string;
  /** Sends files: multipart/form-data, with and without htmx. */
  multipart?: boolean;
}

/**
 * A form that runs an action: POST to `action` with its CSRF token (bound to the session and to
 * `action`), `novalidate` so the operation's own 422 is what the member reads, and — with htmx —
 * the same POST answered with the changed fragment.
 */
export function form(session: Session, action: string, content: Html, options: FormOptions = {}): Html {
  const enhanced = options.plain
    ? ''
    : html` hx-post="${action}" hx-target="${options.target ?? 'this'}" hx-swap="${options.swap ?? 'outerHTML'}"${options.multipart ? html` hx-encoding="multipart/form-data"` : ''}`;
  const problem = options.state?.problem ? flashMessage({ kind: 'error', text: options.state.problem }) : '';
  return html`<form method="post" action="${action}"${options.id ? html` id="${options.id}"` : ''}${options.className ? html` class="${options.className}"` : ''}${
    options.label ? html` aria-label="${options.label}"` : ''
  }${options.multipart ? html` enctype="multipart/form-data"` : ''} novalidate${enhanced}><input type="hidden" name="csrf" value="${formToken(session, action)}">${problem}${content}</form>`;
}

/** The CSRF header of an htmx request that is not a form (a drag, a button with hx-post), as `hx-headers`. */
export function htmxHeaders(session: Session, action: string): Html {
  return html` hx-headers="${JSON.stringify({ 'X-CSRF-Token': formToken(session, action) })}"`;
}
