import type { Kysely } from 'kysely';
import { normalizeName } from '../../core/names.ts';
import type { DB } from '../../storage/schema.ts';

/** What a project offers its forms: ticket types, and custom fields with the types that have them. */
export interface FormVocabulary {
  types: { id: string; name: string; is_subtask: boolean }[];
  customFields: { key: string; name: string; ticket_types: string[] }[];
}

export async function loadFormVocabulary(db: Kysely<DB>, projectId: string): Promise<FormVocabulary> {
  const [types, customFields] = await Promise.all([
    db.selectFrom('ticket_types').select(['id', 'name', 'is_subtask']).where('project_id', '=', projectId).orderBy('position').execute(),
    db
      .selectFrom('custom_fields')
      .select(['key', 'name', 'ticket_types'])
      .where('project_id', '=', projectId)
      .orderBy('position')
      .execute(),
  ]);
  return { types, customFields };
}

/** The built-in fields a form may show, by key, with the names people see. */
export const BUILT_IN_FIELDS: ReadonlyMap<string, string> = new Map([
  ['summary', 'Summary'],
  ['description', 'Description'],
  ['priority', 'Priority'],
]);

/** Field keys a form raising tickets of this type may show: the built-ins, then the type's custom fields. */
export function fieldKeysForType(vocabulary: FormVocabulary, typeName: string | null): string[] {
  const custom = vocabulary.customFields.filter(
    (f) => f.ticket_types.length === 0 || (typeName !== null && f.ticket_types.some((t) => normalizeName(t) === normalizeName(typeName))),
  );
  return [...BUILT_IN_FIELDS.keys(), ...custom.map((f) => f.key)];
}

/** A field's name in the project; null for a custom field that no longer exists. */
export function fieldName(vocabulary: FormVocabulary, key: string): string | null {
  return BUILT_IN_FIELDS.get(key) ?? vocabulary.customFields.find((f) => f.key === key)?.name ?? null;
}
