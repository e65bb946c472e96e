import type { ColumnType, Generated } from 'kysely';

// Row types of migration 0013-time as Kysely sees them.

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  domains: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Generated<string>;
}

export interface ContractsTable {
  id: Generated<string>;
  name: string;
}

export interface PhasesTable {
  id: Generated<string>;
  name: string;
  start_date: string;
  end_date: string;
  contract_id: string | null;
  customer_id: string | null;
  project_id: string | null;
  /** numeric: read as a decimal string */
  rate: string | null;
  currency: string | null;
  max_days_available: number | null;
  hours_per_day: ColumnType<string, string | undefined, string>;
  closed: Generated<boolean>;
}

export interface ActivitiesTable {
  id: Generated<string>;
  member_id: string;
  description: string | null;
  started_at: string;
  ended_at: string | null;
  /** generated: the length in seconds once finished */
  seconds: ColumnType<number | null, never, never>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  project_id: string | null;
  customer_id: string | null;
  ticket_id: string | null;
  /** Markdown */
  note: string | null;
  billable: Generated<boolean>;
  worklog_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<string>;
  edited_at: string | null;
  deleted_at: string | null;
}

export interface TimeTables {
  organizations: OrganizationsTable;
  contracts: ContractsTable;
  phases: PhasesTable;
  activities: ActivitiesTable;
}

declare module '../../storage/schema.ts' {
  interface DB extends TimeTables {}
}
