import type { FieldShape } from '../../../modules/tickets/index.ts';
import { field } from '../../components/index.ts';
import type { FormState, FormValues } from '../../forms.ts';
import { html, type Html } from '../../html.ts';

/** A custom field's name in a form: `fields.<key>`, as a 422's pointer `/fields/<key>` names it back. */
export const customFieldName = (key: string) => `fields.${key}`;

function multiChoice(shape: FieldShape, state: FormState | undefined): Html {
  const name = customFieldName(shape.key);
  const sent = state?.values[name];
  const picked = new Set(typeof sent === 'string' ? [sent] : (sent ?? []));
  const error = state?.errors[name];
  const id = `field-fields-${shape.key}`;
  return html`<fieldset class="field choices"${error ? html` aria-describedby="${id}-error"` : ''}><legend class="label">${shape.name} <span class="muted">(optional)</span></legend>${shape.choices.map(
    (choice, i) =>
      html`<label class="check" for="${id}-${i}"><input type="checkbox" id="${id}-${i}" name="${name}" value="${choice}"${picked.has(choice) ? html` checked` : ''}> ${choice}</label>`,
  )}${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}</fieldset>`;
}

/** The inputs of custom fields, each by its kind: a choice, several, a date, a number, a person, text. */
export function customFieldInputs(shapes: readonly FieldShape[], state: FormState | undefined): Html {
  return html`${shapes.map((shape) => {
    const name = customFieldName(shape.key);
    if (shape.type === 'multi_select') return multiChoice(shape, state);
    if (shape.type === 'select')
      return field({
        name,
        label: shape.name,
        type: 'select',
        optional: true,
        state,
        choices: [{ value: '', label: 'None' }, ...shape.choices.map((c) => ({ value: c, label: c }))],
      });
    // a number is typed as text: what is wrong with it is the service's to say (forms are novalidate)
    const type = shape.type === 'date' ? 'date' : 'text';
    const hint = shape.type === 'person' ? 'A name, an email address or `me`.' : undefined;
    return field({ name, label: shape.name, type, optional: true, state, ...(hint ? { hint } : {}) });
  })}`;
}

/** The `fields` object of an operation's body from the form: only fields given a value (a form cannot tell "clear" from "leave"). */
export function customFieldValues(shapes: readonly FieldShape[], values: FormValues): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const shape of shapes) {
    const raw = values[customFieldName(shape.key)];
    if (raw === undefined) continue;
    if (shape.type === 'multi_select') {
      const list = (typeof raw === 'string' ? [raw] : raw).filter((v) => v !== '');
      if (list.length) out[shape.key] = list;
      continue;
    }
    const text = (typeof raw === 'string' ? raw : (raw[0] ?? '')).trim();
    if (text !== '') out[shape.key] = text;
  }
  return Object.keys(out).length ? out : undefined;
}
