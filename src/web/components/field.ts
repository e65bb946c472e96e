import { formValue, type FormState } from '../forms.ts';
import { html, type Html } from '../html.ts';

export interface Choice {
  value: string;
  label: string;
}

export interface FieldOptions {
  name: string;
  label: string;
  /** A line under the label saying what to write. */
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'date' | 'search' | 'textarea' | 'select' | 'checkbox';
  choices?: readonly Choice[];
  /** Said in the label; the server decides (forms are `novalidate`, so its message is the one shown). */
  optional?: boolean;
  /** The value shown when the form state holds none. */
  value?: string;
  /** The form as the member left it: their value, and the error next to this field. */
  state?: FormState;
  autocomplete?: string;
}

const idOf = (name: string) => `field-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/**
 * A labelled field with its hint and its error: the error is tied to the input
 * (`aria-describedby`, `aria-invalid`), so a screen reader reads it with the field.
 */
export function field(options: FieldOptions): Html {
  const id = idOf(options.name);
  const error = options.state?.errors[options.name];
  const value = formValue(options.state, options.name, options.value ?? '');
  const described = [options.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter((d) => d !== null).join(' ');
  const aria = html`${described ? html` aria-describedby="${described}"` : ''}${error ? html` aria-invalid="true"` : ''}`;
  const hint = options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : '';
  const problem = error ? html`<p class="field-error" id="${id}-error">${error}</p>` : '';
  const label = html`${options.label}${options.optional ? html` <span class="muted">(optional)</span>` : ''}`;
  const type = options.type ?? 'text';
  if (type === 'checkbox') {
    const checked = options.state ? options.state.values[options.name] === 'on' : options.value === 'on';
    return html`<div class="field check"><label for="${id}"><input type="checkbox" id="${id}" name="${options.name}" value="on"${checked ? html` checked` : ''}${aria}> ${label}</label>${hint}${problem}</div>`;
  }
  let control: Html;
  if (type === 'textarea') {
    control = html`<textarea id="${id}" name="${options.name}"${aria}>${value}</textarea>`;
  } else if (type === 'select') {
    control = html`<select id="${id}" name="${options.name}"${aria}>${(options.choices ?? []).map(
      (c) => html`<option value="${c.value}"${c.value === value ? html` selected` : ''}>${c.label}</option>`,
    )}</select>`;
  } else {
    control = html`<input type="${type}" id="${id}" name="${options.name}" value="${value}"${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${aria}>`;
  }
  return html`<div class="field"><label for="${id}">${label}</label>${hint}${control}${problem}</div>`;
}
