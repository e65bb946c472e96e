import type { TObject, TSchema } from 'typebox';
import type { ApiError } from '../core/errors.ts';

/** What a form's fields hold as the browser sent them: a value, or several for a repeated name. */
export type FormValues = Readonly<Record<string, string | readonly string[]>>;

/** A form as the member left it: what they typed, and what was wrong with it. */
export interface FormState {
  values: FormValues;
  /** By field name: the reason a field was refused, shown next to it. */
  errors: Readonly<Record<string, string>>;
  /** A refusal no single field answers for (403, 404, 409, or a field the form does not show). */
  problem: string | null;
}

export const EMPTY_FORM: FormState = { values: {}, errors: {}, problem: null };

/** The form's fields as the browser sent them, without the CSRF token. */
export function formValues(body: unknown): FormValues {
  const values: Record<string, string | readonly string[]> = {};
  if (!body || typeof body !== 'object') return values;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (name === 'csrf') continue;
    if (typeof value === 'string') values[name] = value;
    else if (Array.isArray(value)) values[name] = value.filter((v): v is string => typeof v === 'string');
  }
  return values;
}

const POINTER = /^(\/[^:]*): (.+)$/s;

/**
 * A refusal as the form shows it: a 422's JSON pointer names the field (its first segment, or
 * `fields.<key>` for a custom field) the reason goes next to; anything else is the form's problem.
 */
export function refusedForm(error: ApiError, values: FormValues, fields: readonly string[]): FormState {
  const match = error.code === 'invalid' ? POINTER.exec(error.message) : null;
  if (match) {
    const segments = match[1]!.split('/').slice(1);
    const reason = match[2]!.charAt(0).toUpperCase() + match[2]!.slice(1);
    const candidates = [segments.slice(0, 2).join('.'), segments[0] ?? ''];
    const field = candidates.find((name) => fields.includes(name));
    if (field) return { values, errors: { [field]: reason }, problem: null };
  }
  return { values, errors: {}, problem: error.message };
}

function unwrapNullable(schema: TSchema): { schema: TSchema; nullable: boolean } {
  const branches = (schema as { anyOf?: TSchema[] }).anyOf;
  if (Array.isArray(branches)) {
    const other = branches.filter((b) => (b as { type?: unknown }).type !== 'null');
    if (other.length === 1 && other.length < branches.length) return { schema: other[0]!, nullable: true };
  }
  return { schema, nullable: false };
}

function coerce(schema: TSchema, text: string): unknown {
  const type = (schema as { type?: unknown }).type;
  if ((type === 'integer' || type === 'number') && /^\s*-?\d+(\.\d+)?\s*$/.test(text)) return Number(text);
  if (type === 'boolean') {
    if (['on', 'true', 'yes', '1'].includes(text)) return true;
    if (['off', 'false', 'no', '0'].includes(text)) return false;
  }
  // anything else stays as typed: the operation's validator says what is wrong with it
  return text;
}

/**
 * A form's fields as an operation's body, read by its schema: a text field's string becomes the
 * number or boolean the schema asks for, a list is its repeated fields or its comma-separated
 * words, and a field left empty is left out (or null where the schema allows null and `clear`
 * names it). What is still wrong is left for the operation's own validation to name. Fields the
 * schema does not know are dropped; objects (rich text, custom fields) are the page's to build.
 */
export function formInput(schema: TObject, values: FormValues, clear: readonly string[] = []): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
    const raw = values[name];
    if (raw === undefined) continue;
    const { schema: inner, nullable } = unwrapNullable(property);
    const type = (inner as { type?: unknown }).type;
    if (type === 'array') {
      const items = (inner as { items?: TSchema }).items ?? ({} as TSchema);
      const list = (typeof raw === 'string' ? raw.split(',') : raw).map((v) => v.trim()).filter((v) => v !== '');
      input[name] = list.map((v) => coerce(items, v));
      continue;
    }
    if (type === 'object') continue;
    const text = typeof raw === 'string' ? raw : (raw[0] ?? '');
    if (text.trim() === '') {
      if (nullable && clear.includes(name)) input[name] = null;
      continue;
    }
    input[name] = coerce(inner, text);
  }
  return input;
}

/** A field's value as the form shows it again: what was typed, else the default. */
export function formValue(state: FormState | undefined, name: string, fallback = ''): string {
  const value = state?.values[name];
  if (value === undefined) return fallback;
  return typeof value === 'string' ? value : value.join(', ');
}
