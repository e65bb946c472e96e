import type { ColumnType, Generated } from 'kysely';

// Row types as Kysely sees them. Timestamps and dates come back as text (see storage/types.ts)
// so that microseconds survive; they are written as ISO strings or with now().
export type Timestamp = ColumnType<string, string | undefined, string>;
export type NullableTimestamp = ColumnType<string | null, string | null | undefined, string | null>;
export type Json<T> = ColumnType<T, string, string>;

export interface WorkspaceSettingsTable {
  id: Generated<number>;
  name: Generated<string>;
  rest_api: Generated<boolean>;
  mcp: Generated<boolean>;
  module_boards: Generated<boolean>;
  module_sprints: Generated<boolean>;
  module_helpdesk: Generated<boolean>;
  module_knowledge: Generated<boolean>;
  module_time: Generated<boolean>;
  module_crm: Generated<boolean>;
  default_priority: string | null;
  /** The operator's switch: every change refused (spec 5.6; migration 0030). */
  read_only: Generated<boolean>;
  /** The largest file an attachment may be, in bytes (migration 0034). */
  attachment_max_bytes: Generated<number>;
  config_version: ColumnType<number, number | undefined, number>;
  updated_at: Generated<string>;
}

export interface MembersTable {
  id: Generated<string>;
  display_name: string;
  username: string;
  email: string | null;
  password_hash: string | null;
  is_admin: Generated<boolean>;
  active: Generated<boolean>;
  timezone: Generated<string>;
  /** Whether notifications also come by email (when the operator configured mail; migration 0011). */
  email_notifications: Generated<boolean>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface GroupsTable {
  id: Generated<string>;
  name: string;
  created_at: Generated<string>;
}

export interface GroupMembersTable {
  group_id: string;
  member_id: string;
}

export interface RolesTable {
  id: Generated<string>;
  name: string;
  permissions: string[];
  created_at: Generated<string>;
}

export interface WorkflowsTable {
  id: Generated<string>;
  name: string;
  created_at: Generated<string>;
}

export interface StatusesTable {
  id: Generated<string>;
  workflow_id: string;
  name: string;
  category: 'todo' | 'in_progress' | 'done' | null;
  position: number;
}

export interface TransitionsTable {
  id: Generated<string>;
  workflow_id: string;
  name: string;
  from_status_ids: string[] | null;
  to_status_id: string;
  conditions: Json<unknown[]>;
  validators: Json<unknown[]>;
  screen: Json<Record<string, unknown>>;
  position: number;
}

export interface ProjectsTable {
  id: Generated<string>;
  key: string;
  name: string;
  kind: 'software' | 'helpdesk' | 'business' | 'sales';
  description: string | null;
  lead_id: string | null;
  default_assignee_id: string | null;
  next_ticket_number: Generated<number>;
  position: Generated<number>;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

export interface TicketTypesTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  workflow_id: string;
  is_subtask: Generated<boolean>;
  position: number;
}

export interface PrioritiesTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  position: number;
}

export interface ResolutionsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  is_default: Generated<boolean>;
  position: number;
}

export interface ComponentsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  default_assignee_id: string | null;
  archived: Generated<boolean>;
  position: number;
}

export interface VersionsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  archived: Generated<boolean>;
  released: Generated<boolean>;
  position: number;
}

export interface LabelsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  archived: Generated<boolean>;
  created_at: Generated<string>;
}

export interface SecurityLevelsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  position: number;
}

export interface SecurityLevelGrantsTable {
  id: Generated<string>;
  level_id: string;
  member_id: string | null;
  group_id: string | null;
  role_id: string | null;
}

export type CustomFieldType = 'text' | 'number' | 'date' | 'select' | 'multi_select' | 'person';

export interface CustomFieldsTable {
  id: Generated<string>;
  project_id: string;
  key: string;
  name: string;
  type: CustomFieldType;
  choices: string[];
  ticket_types: string[];
  position: number;
}

export interface ProjectRolesTable {
  id: Generated<string>;
  project_id: string;
  role_id: string;
  member_id: string | null;
  group_id: string | null;
}

/** The OAuth server adds its columns (oauth/tables.ts). */
export interface TokensTable {
  id: Generated<string>;
  member_id: string;
  kind: 'personal' | 'oauth';
  name: string;
  access: 'read' | 'write';
  token_hash: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: Generated<string>;
}

export interface HistoryChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface HistoryTable {
  id: Generated<string>;
  entity_type: string;
  entity_id: string;
  kind: string;
  actor_id: string | null;
  via: string | null;
  at: Generated<string>;
  changes: Json<HistoryChange[]>;
}

export interface NotificationsTable {
  id: Generated<string>;
  member_id: string;
  entity_type: string;
  entity_id: string;
  kind: string;
  payload: Json<Record<string, unknown>>;
  created_at: Generated<string>;
  delivered_at: string | null;
  read_at: ColumnType<string | null, string | null | undefined, string | null>;
  email_state: ColumnType<
    'none' | 'queued' | 'sending' | 'sent' | 'failed',
    'none' | 'queued' | undefined,
    'none' | 'queued' | 'sending' | 'sent' | 'failed'
  >;
  email_attempts: Generated<number>;
  email_next_at: ColumnType<string | null, string | null | undefined, string | null>;
  email_claimed_at: ColumnType<string | null, string | null | undefined, string | null>;
  email_error: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Something to tell a member at a time (migration 0011): a follow-up due, say. Fired once. */
export interface RemindersTable {
  id: Generated<string>;
  member_id: string;
  entity_type: string;
  entity_id: string;
  kind: string;
  payload: Json<Record<string, unknown>>;
  due_at: string;
  fired_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<string>;
}

/** The workspace audit log (migration 0005): configuration changes with the member and agent behind them. */
export interface AuditLogTable {
  id: Generated<string>;
  at: Generated<string>;
  actor_id: string | null;
  via: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  target: string;
  project_id: string | null;
  changes: Json<HistoryChange[]>;
}

/**
 * The platform's tables. Each module (and the OAuth server) adds its own from its `tables.ts` by
 * augmenting this interface, so storage never imports upward.
 */
export interface DB {
  workspace_settings: WorkspaceSettingsTable;
  members: MembersTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  roles: RolesTable;
  workflows: WorkflowsTable;
  statuses: StatusesTable;
  transitions: TransitionsTable;
  projects: ProjectsTable;
  ticket_types: TicketTypesTable;
  priorities: PrioritiesTable;
  resolutions: ResolutionsTable;
  components: ComponentsTable;
  versions: VersionsTable;
  labels: LabelsTable;
  security_levels: SecurityLevelsTable;
  security_level_grants: SecurityLevelGrantsTable;
  custom_fields: CustomFieldsTable;
  project_roles: ProjectRolesTable;
  tokens: TokensTable;
  history: HistoryTable;
  notifications: NotificationsTable;
  reminders: RemindersTable;
  audit_log: AuditLogTable;
}
