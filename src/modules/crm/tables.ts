import type { ColumnType, Generated } from 'kysely';

// Row types of migration 0014-crm as Kysely sees them (timestamps are text: storage/pg-types.ts).
type Json<T> = ColumnType<T, string, string>;
type JsonWithDefault<T> = ColumnType<T, string | undefined, string>;
/** Written by the database alone (a generated column). */
type ReadOnly<T> = ColumnType<T, never, never>;

export const CONTACT_STAGES = ['lead', 'qualified', 'customer', 'former'] as const;
export const COMPANY_STAGES = ['lead', 'prospect', 'customer', 'former'] as const;
export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1000+'] as const;
export const EMAIL_LABELS = ['work', 'home', 'other'] as const;
export const PHONE_LABELS = ['work', 'home', 'mobile', 'other'] as const;
export const INTERACTION_KINDS = ['note', 'call', 'meeting', 'email', 'task'] as const;

export type ContactStage = (typeof CONTACT_STAGES)[number];
export type CompanyStage = (typeof COMPANY_STAGES)[number];
export type CompanySize = (typeof COMPANY_SIZES)[number];
export type EmailLabel = (typeof EMAIL_LABELS)[number];
export type PhoneLabel = (typeof PHONE_LABELS)[number];
export type InteractionKind = (typeof INTERACTION_KINDS)[number];

export interface PostalAddress {
  label: string;
  lines: string[];
}

export interface ConsentAnswer {
  purpose: string;
  granted: boolean;
  recorded_at: string;
}

export interface CompaniesTable {
  id: Generated<string>;
  name: string;
  domains: ColumnType<string[], string[] | undefined, string[]>;
  stage: Generated<CompanyStage>;
  industry: string | null;
  size: CompanySize | null;
  website: string | null;
  owner_id: string | null;
  customer: Generated<boolean>;
  archived: Generated<boolean>;
  description_format: string | null;
  description_text: string | null;
  search_vector: ReadOnly<string>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface ContactsTable {
  id: Generated<string>;
  name: string;
  job_title: string | null;
  stage: Generated<ContactStage>;
  company_id: string | null;
  owner_id: string | null;
  notes_format: string | null;
  notes_text: string | null;
  source: Generated<string>;
  archived: Generated<boolean>;
  postal_addresses: JsonWithDefault<PostalAddress[]>;
  fields: JsonWithDefault<Record<string, string>>;
  consent: JsonWithDefault<ConsentAnswer[]>;
  search_vector: ColumnType<string, never, never>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface ContactEmailsTable {
  id: Generated<string>;
  contact_id: string;
  address: string;
  label: EmailLabel;
  is_primary: boolean;
  created_at: Generated<string>;
}

export interface ContactPhonesTable {
  id: Generated<string>;
  contact_id: string;
  number: string;
  label: PhoneLabel;
  is_primary: boolean;
  created_at: Generated<string>;
}

export interface CrmRolesTable {
  id: Generated<string>;
  role_id: string;
  member_id: string | null;
  group_id: string | null;
  company_id: string | null;
}

export interface DealsTable {
  ticket_id: string;
  company_id: string | null;
}

export interface DealContactsTable {
  ticket_id: string;
  contact_id: string;
  role: string | null;
  position: Generated<number>;
}

export interface InteractionsTable {
  id: Generated<string>;
  kind: InteractionKind;
  subject: string;
  body_format: Generated<string>;
  body_text: Generated<string>;
  occurred_at: string;
  duration_seconds: Generated<number>;
  author_id: string | null;
  contact_id: string | null;
  company_id: string | null;
  ticket_id: string | null;
  due_at: string | null;
  assignee_id: string | null;
  done_at: string | null;
  email: Generated<boolean>;
  created_at: Generated<string>;
}

export interface CrmTables {
  companies: CompaniesTable;
  contacts: ContactsTable;
  contact_emails: ContactEmailsTable;
  contact_phones: ContactPhonesTable;
  crm_roles: CrmRolesTable;
  deals: DealsTable;
  deal_contacts: DealContactsTable;
  interactions: InteractionsTable;
}

declare module '../../storage/schema.ts' {
  interface DB extends CrmTables {}
}

export type { Json };
