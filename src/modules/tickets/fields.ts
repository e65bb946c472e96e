import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { isDay } from '../../core/moments.ts';
import { normalizeName, resolveName } from '../../core/names.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { resolvePerson } from '../../core/people.ts';
import type { ProjectConfig } from './project-config.ts';

type FieldDef = ProjectConfig['fields'][number];

/** A checked custom-field value: `value` null clears the field. */
export interface FieldValue {
  field: FieldDef;
  value: unknown;
  display: string | null;
}

/** The custom fields a ticket type has (a field with no types listed belongs to every type). */
export function fieldsForType(config: ProjectConfig, typeName: string): FieldDef[] {
  return config.fields.filter(
    (f) => f.ticket_types.length === 0 || f.ticket_types.some((t) => normalizeName(t) === normalizeName(typeName)),
  );
}

/** A multi-value field's text as shown: one choice (a choice may hold a comma), else the comma-separated choices. */
function splitChoices(choices: readonly string[], text: string): string[] {
  if (choices.some((c) => normalizeName(c) === normalizeName(text))) return [text];
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** How a person-type value is looked up: through the API's resolver, or the workspace file's people. */
export type PersonLookup = (given: string, pointer: string) => Promise<{ id: string; name: string }>;

async function checkValue(person: PersonLookup, field: FieldDef, raw: unknown, pointer: string): Promise<FieldValue> {
  if (raw === null || raw === '' || (Array.isArray(raw) && raw.length === 0)) return { field, value: null, display: null };
  const choice = (given: unknown, at: string) => {
    if (typeof given !== 'string') throw invalid(at, `must be one of ${field.choices.map((c) => `"${c}"`).join(', ')}`);
    return resolveName(field.choices, given, { pointer: at, what: 'choice', names: (c) => [c] });
  };
  switch (field.type) {
    case 'text':
      if (typeof raw !== 'string') throw invalid(pointer, 'must be a string');
      return { field, value: raw, display: raw };
    case 'number': {
      const number = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : NaN;
      if (!Number.isFinite(number)) throw invalid(pointer, 'must be a number');
      return { field, value: number, display: String(number) };
    }
    case 'date':
      if (typeof raw !== 'string' || !isDay(raw)) {
        throw invalid(pointer, 'must be a date, YYYY-MM-DD, in the years 0001–9999');
      }
      return { field, value: raw, display: raw };
    case 'select': {
      const picked = choice(raw, pointer);
      return { field, value: picked, display: picked };
    }
    case 'multi_select': {
      // a list, one choice, or the choices joined by commas as the field is shown ("Linux, Docker")
      const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? splitChoices(field.choices, raw) : [raw];
      const picked = [...new Set(list.map((item, i) => choice(item, Array.isArray(raw) ? `${pointer}/${i}` : pointer)))];
      return { field, value: picked, display: picked.join(', ') };
    }
    case 'person': {
      if (typeof raw !== 'string') throw invalid(pointer, 'must be a person: `me`, a display name or an id');
      const who = await person(raw, pointer);
      return { field, value: who.id, display: who.name };
    }
  }
}

/**
 * Checks custom-field values against the fields the ticket's type has, before anything is
 * written: an unknown key or a value the field does not take is 422 listing keys or choices.
 */
export async function checkFieldValuesWith(
  person: PersonLookup,
  allowed: readonly FieldDef[],
  input: Record<string, unknown>,
  pointer = '/fields',
): Promise<FieldValue[]> {
  const values: FieldValue[] = [];
  for (const [key, raw] of Object.entries(input)) {
    const field = resolveName(allowed, key, { pointer, what: 'custom field', names: (f) => [f.key] });
    values.push(await checkValue(person, field, raw, `${pointer}/${field.key}`));
  }
  return values;
}

export function checkFieldValues(
  ctx: Context,
  allowed: readonly FieldDef[],
  input: Record<string, unknown>,
  pointer = '/fields',
): Promise<FieldValue[]> {
  return checkFieldValuesWith((given, at) => resolvePerson(ctx, given, at), allowed, input, pointer);
}

/** The checked values that change what a ticket holds (`current`: its stored displays by field id), each with the display it had. */
function changedValues(current: ReadonlyMap<string, string>, values: readonly FieldValue[]): (FieldValue & { before: string | null })[] {
  return values
    .map((value) => ({ ...value, before: current.get(value.field.id) ?? null }))
    .filter(({ before, display }) => before !== display);
}

const historyChange = ({ field, before, display }: FieldValue & { before: string | null }): HistoryChange => ({
  field: field.key,
  from: before,
  to: display,
});

/** Writes checked values; returns the history changes (display text before and after). */
export async function writeFieldValues(
  ctx: Pick<Context, 'db'>,
  ticketId: string,
  values: readonly FieldValue[],
): Promise<HistoryChange[]> {
  if (values.length === 0) return [];
  const current = await ctx.db
    .selectFrom('ticket_field_values')
    .select(['field_id', 'display'])
    .where('ticket_id', '=', ticketId)
    .execute();
  const changed = changedValues(new Map(current.map((c) => [c.field_id, c.display])), values);
  for (const { field, value, display } of changed) {
    if (value === null) {
      await ctx.db.deleteFrom('ticket_field_values').where('ticket_id', '=', ticketId).where('field_id', '=', field.id).execute();
    } else {
      await ctx.db
        .insertInto('ticket_field_values')
        .values({ ticket_id: ticketId, field_id: field.id, value: JSON.stringify(value), display: display ?? '' })
        .onConflict((oc) => oc.columns(['ticket_id', 'field_id']).doUpdateSet({ value: JSON.stringify(value), display: display ?? '' }))
        .execute();
    }
  }
  return changed.map(historyChange);
}

/** A stored custom field value of a new ticket, as the statement creating it inserts it. */
export interface NewFieldValue {
  field_id: string;
  value: unknown;
  display: string;
}

/**
 * The checked values of a ticket being created: the rows to insert, in the order of their field
 * ids (the order its search document takes them in), and the history changes, as writeFieldValues
 * would record them on a ticket that has none.
 */
export function newFieldValues(values: readonly FieldValue[]): { rows: NewFieldValue[]; changes: HistoryChange[] } {
  const changed = changedValues(new Map(), values);
  const rows = changed
    .filter(({ value }) => value !== null)
    .map(({ field, value, display }) => ({ field_id: field.id, value, display: display ?? '' }))
    .sort((a, b) => (a.field_id < b.field_id ? -1 : a.field_id > b.field_id ? 1 : 0));
  return { rows, changes: changed.map(historyChange) };
}
