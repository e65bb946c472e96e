import type { ColumnType, Generated } from 'kysely';

// Row types of migration 0005-helpdesk (the request_types table) as Kysely sees them.
type Json<T> = ColumnType<T, string, string>;

export type Submission = 'authenticated' | 'open';

/** One field of a form as stored; its name is read from the project when presented. */
export interface StoredFormField {
  field: string;
  displayed: boolean;
  required: boolean;
  label: string | null;
}

export interface RequestTypesTable {
  id: Generated<string>;
  project_id: string;
  key: string;
  name: string;
  description: string | null;
  help_text: string | null;
  portal_group: string | null;
  hidden: Generated<boolean>;
  submission: Generated<Submission>;
  ticket_type_id: string | null;
  rank: string;
  archived: Generated<boolean>;
  fields: Json<StoredFormField[]>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface HelpdeskTables {
  request_types: RequestTypesTable;
}

declare module '../../storage/schema.ts' {
  interface DB extends HelpdeskTables {}
}
