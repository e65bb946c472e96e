import type { Generated } from 'kysely';
import type { Json } from '../../storage/schema.ts';

// Row types of migration 0004-boards (and 0035's swimlanes and quick filters) as Kysely sees them; timestamps come back as text.

export type BoardKind = 'scrum' | 'kanban';
export type SprintState = 'future' | 'active' | 'closed';
export type Swimlanes = 'none' | 'assignee' | 'parent' | 'priority';

/** What, beside its projects, chooses a board's tickets: one of these types, one of these labels (each when given). */
export interface BoardFilter {
  types?: string[];
  labels?: string[];
}

/** A quick filter the board's page offers: the cards matching every criterion given. */
export interface QuickFilter {
  name: string;
  assignee?: 'me' | 'unassigned' | null;
  label?: string | null;
  type?: string | null;
}

export interface BoardsTable {
  id: Generated<string>;
  number: number;
  name: string;
  kind: BoardKind;
  owner_id: string | null;
  all_projects: Generated<boolean>;
  done_retention_days: number | null;
  /** How the board's page groups cards into rows (migration 0035). */
  swimlanes: Generated<Swimlanes>;
  quick_filters: Generated<Json<QuickFilter[]>>;
  filter: Json<BoardFilter> | null;
  created_at: Generated<string>;
}

export interface BoardProjectsTable {
  board_id: string;
  project_id: string;
  position: number;
}

export interface BoardColumnsTable {
  id: Generated<string>;
  board_id: string;
  position: number;
  name: string | null;
  statuses: string[];
  min_tickets: number | null;
  max_tickets: number | null;
}

export interface SprintsTable {
  id: Generated<string>;
  board_id: string;
  name: string;
  goal: string | null;
  state: Generated<SprintState>;
  start_at: string | null;
  end_at: string | null;
  completed_at: string | null;
  position: number;
  created_at: Generated<string>;
}

export interface SprintTicketsTable {
  sprint_id: string;
  ticket_id: string;
  board_id: string;
  open: Generated<boolean>;
}

export interface BoardTables {
  boards: BoardsTable;
  board_projects: BoardProjectsTable;
  board_columns: BoardColumnsTable;
  sprints: SprintsTable;
  sprint_tickets: SprintTicketsTable;
}

declare module '../../storage/schema.ts' {
  interface DB extends BoardTables {}
}
