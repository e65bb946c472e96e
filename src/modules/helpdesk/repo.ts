import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import type { RequestTypesTable, StoredFormField } from './tables.ts';

/** A stored form with its ticket type's name. */
export type FormRow = Omit<Selectable<RequestTypesTable>, 'created_at' | 'updated_at'> & { ticket_type: string | null };

/** Stored fields with their keys in one order (jsonb keeps its own), so values compare as JSON text. */
function canonicalFields(fields: readonly StoredFormField[]): StoredFormField[] {
  return fields.map(({ field, displayed, required, label }) => ({ field, displayed, required, label }));
}

/** Every form of a project in portal order: active ones by rank, then retired ones by rank. */
export async function projectForms(db: Kysely<DB>, projectId: string): Promise<FormRow[]> {
  const rows = await db
    .selectFrom('request_types as rt')
    .leftJoin('ticket_types as tt', 'tt.id', 'rt.ticket_type_id')
    .select([
      'rt.id',
      'rt.project_id',
      'rt.key',
      'rt.name',
      'rt.description',
      'rt.help_text',
      'rt.portal_group',
      'rt.hidden',
      'rt.submission',
      'rt.ticket_type_id',
      'tt.name as ticket_type',
      'rt.rank',
      'rt.archived',
      'rt.fields',
    ])
    .where('rt.project_id', '=', projectId)
    .orderBy('rt.archived')
    .orderBy('rt.rank')
    .orderBy('rt.id')
    .execute();
  return rows.map((row) => ({ ...row, fields: canonicalFields(row.fields) }));
}

// Any fixed number: two changes to one project's forms never read the same ranks and keys at once.
const FORMS_LOCK = 7_245_005;

/** Serializes changes to one project's forms (keys, names and ranks are checked, then written). */
export async function lockProjectForms(db: Kysely<DB>, projectId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${FORMS_LOCK}, hashtext(${projectId}))`.execute(db);
}

/** What a create or a change writes. */
export type FormValues = Omit<FormRow, 'id' | 'project_id' | 'ticket_type' | 'rank' | 'archived'>;

export async function insertForm(db: Kysely<DB>, projectId: string, values: FormValues, rank: string): Promise<string> {
  const row = await db
    .insertInto('request_types')
    .values({ project_id: projectId, ...values, fields: JSON.stringify(values.fields), rank })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateForm(
  db: Kysely<DB>,
  id: string,
  values: Partial<FormValues> & { archived?: boolean; rank?: string },
): Promise<void> {
  const { fields, ...rest } = values;
  await db
    .updateTable('request_types')
    .set({ ...rest, ...(fields ? { fields: JSON.stringify(fields) } : {}), updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Tickets show the name of the form they were raised through; a rename follows to them. */
export async function renameFormOnTickets(db: Kysely<DB>, formId: string, name: string): Promise<void> {
  await db.updateTable('tickets').set({ request_type: name }).where('request_type_id', '=', formId).execute();
}
