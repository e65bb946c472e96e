import { invalid } from '../../core/errors.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import type { FormFieldInput } from './schemas.ts';
import type { StoredFormField } from './tables.ts';
import { fieldKeysForType, type FormVocabulary } from './vocabulary.ts';

const SUMMARY: StoredFormField = { field: 'summary', displayed: true, required: true, label: null };

/** What a form shows when it is created without `fields`: the summary and the description. */
export const DEFAULT_FORM_FIELDS: readonly StoredFormField[] = [
  SUMMARY,
  { field: 'description', displayed: true, required: false, label: null },
];

/**
 * A form's fields as given (spec 4.4): each a field the form's ticket type knows, each once. The
 * summary is always displayed and required: left out, it is put first; sent as hidden or optional,
 * it is refused rather than silently changed.
 */
export function checkFormFields(vocabulary: FormVocabulary, typeName: string | null, given: readonly FormFieldInput[]): StoredFormField[] {
  const known = fieldKeysForType(vocabulary, typeName);
  const seen = new Map<string, number>();
  const fields = given.map((entry, i): StoredFormField => {
    const pointer = `/fields/${i}`;
    const key = resolveName(known, entry.field, { pointer: `${pointer}/field`, what: 'field', names: (k) => [k] });
    const earlier = seen.get(key);
    if (earlier !== undefined) throw invalid(`${pointer}/field`, `"${key}" is on the form twice (also /fields/${earlier})`);
    seen.set(key, i);
    const field = {
      field: key,
      displayed: entry.displayed ?? true,
      required: entry.required ?? key === 'summary',
      label: entry.label?.trim() || null,
    };
    if (key === 'summary' && !(field.displayed && field.required)) {
      throw invalid(pointer, 'the summary is always displayed and required; send displayed and required as true or leave them out');
    }
    if (field.required && !field.displayed) throw invalid(`${pointer}/required`, 'a field that is not displayed cannot be required');
    return field;
  });
  if (!seen.has('summary')) fields.unshift(SUMMARY);
  return fields;
}

/**
 * Fields a form keeps when its ticket type changes must be fields of the new type; the message
 * names the first that is not.
 */
export function checkKeptFields(vocabulary: FormVocabulary, typeName: string | null, fields: readonly StoredFormField[]): void {
  const known = new Set(fieldKeysForType(vocabulary, typeName).map(normalizeName));
  const stray = fields.find((f) => !known.has(normalizeName(f.field)));
  if (stray) {
    throw invalid(
      '/ticket_type',
      `the form shows "${stray.field}", which tickets of type "${typeName}" do not have; send fields without it as well`,
    );
  }
}
