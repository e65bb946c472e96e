import type { ColumnType, Generated } from 'kysely';

// Row types of migration 0002-tickets as Kysely sees them; timestamps and dates come back as text.
type Json<T> = ColumnType<T, string, string>;

export interface TicketsTable {
  id: Generated<string>;
  project_id: string;
  number: number;
  key: string;
  summary: string;
  type_id: string;
  status_id: string;
  priority_id: string | null;
  resolution_id: string | null;
  assignee_id: string | null;
  reporter_id: string | null;
  parent_id: string | null;
  security_level_id: string | null;
  request_type: string | null;
  /** The form the ticket was raised through (0005-helpdesk); request_type holds its name. */
  request_type_id: ColumnType<string | null, string | null | undefined, string | null>;
  description_format: string | null;
  description_text: string | null;
  environment_format: string | null;
  environment_text: string | null;
  due_date: string | null;
  original_estimate_seconds: number | null;
  remaining_estimate_seconds: number | null;
  time_spent_seconds: number | null;
  rank: string | null;
  created_at: Generated<string>;
  updated_at: Generated<string>;
  resolved_at: string | null;
  search_vector: Generated<string>;
  /** The comments' part of search_vector, grown by each new comment (migration 0017); NULL: not kept yet. */
  comments_vector: ColumnType<string | null, never, string | null>;
  /** The names of its labels in name order (migration 0022), written with its ticket_labels rows only: by setLabels and a create's statement. */
  label_names: ColumnType<string[], never, never>;
}

export interface TicketLabelsTable {
  ticket_id: string;
  label_id: string;
}

export interface TicketComponentsTable {
  ticket_id: string;
  component_id: string;
}

export interface TicketVersionsTable {
  ticket_id: string;
  version_id: string;
  kind: 'fix' | 'affected';
}

export interface TicketWatchersTable {
  ticket_id: string;
  member_id: string;
}

export interface TicketLinksTable {
  id: Generated<string>;
  source_id: string;
  target_id: string;
  outward: string;
  inward: string;
  created_at: Generated<string>;
}

export interface TicketFieldValuesTable {
  ticket_id: string;
  field_id: string;
  value: Json<unknown>;
  display: string;
}

export type CommentVisibility = 'public' | 'internal' | 'restricted';

export interface CommentsTable {
  id: Generated<string>;
  ticket_id: string;
  author_id: string | null;
  body_format: Generated<string>;
  body_text: string;
  visibility: Generated<CommentVisibility>;
  restricted_role_id: string | null;
  restricted_group_id: string | null;
  created_at: Generated<string>;
  edited_at: string | null;
  search_vector: Generated<string>;
}

export interface WorklogsTable {
  id: Generated<string>;
  ticket_id: string;
  author_id: string | null;
  started_at: string;
  time_spent_seconds: number;
  body_format: string | null;
  body_text: string | null;
  created_at: Generated<string>;
  edited_at: string | null;
}

export interface TicketTables {
  tickets: TicketsTable;
  ticket_labels: TicketLabelsTable;
  ticket_components: TicketComponentsTable;
  ticket_versions: TicketVersionsTable;
  ticket_watchers: TicketWatchersTable;
  ticket_links: TicketLinksTable;
  ticket_field_values: TicketFieldValuesTable;
  comments: CommentsTable;
  worklogs: WorklogsTable;
}

declare module '../../storage/schema.ts' {
  interface DB extends TicketTables {}
}
