import { formatDuration } from '../../core/durations.ts';
import type { Person } from '../../core/shapes.ts';
import { toTimestamp } from '../../core/time.ts';
import type { TicketRow } from './repo.ts';
import { presentRichText } from '../../core/rich-text.ts';
import type { Comment, Ticket, TicketSummary, Worklog } from './schemas.ts';

/** The page of the service that shows a ticket to a logged-in member. */
export function ticketUrl(publicUrl: string, key: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/browse/${key}`;
}

export function person(id: string | null, name: string | null): Person | null {
  return id === null || name === null ? null : { id, name };
}

/** The columns a TicketSummary shows: lists (boards, backlogs) may read just these. */
export type SummaryRow = Pick<
  TicketRow,
  | 'key'
  | 'summary'
  | 'project_key'
  | 'type_name'
  | 'status_name'
  | 'status_category'
  | 'priority_name'
  | 'assignee_id'
  | 'assignee_name'
  | 'labels'
  | 'updated_at'
>;

export function presentSummary(row: SummaryRow, publicUrl: string): TicketSummary {
  return {
    key: row.key,
    summary: row.summary,
    project: row.project_key,
    type: row.type_name,
    status: { name: row.status_name, category: row.status_category },
    priority: row.priority_name,
    assignee: person(row.assignee_id, row.assignee_name),
    labels: row.labels,
    updated_at: toTimestamp(row.updated_at),
    url: ticketUrl(publicUrl, row.key),
  };
}

export function presentTicket(row: TicketRow, publicUrl: string): Ticket {
  return {
    ...presentSummary(row, publicUrl),
    description: presentRichText(row.description_format, row.description_text),
    environment: presentRichText(row.environment_format, row.environment_text),
    resolution: row.resolution_name,
    reporter: person(row.reporter_id, row.reporter_name),
    parent: row.parent_key,
    components: row.components,
    fix_versions: row.fix_versions,
    affected_versions: row.affected_versions,
    security_level: row.security_level_name,
    request_type: row.request_type,
    due_date: row.due_date,
    created_at: toTimestamp(row.created_at),
    resolved_at: toTimestamp(row.resolved_at),
    original_estimate_seconds: row.original_estimate_seconds,
    remaining_estimate_seconds: row.remaining_estimate_seconds,
    time_spent_seconds: row.time_spent_seconds,
    fields: row.fields ?? {},
  };
}

export interface CommentRow {
  id: string;
  author_id: string | null;
  author_name: string | null;
  body_format: string;
  body_text: string;
  visibility: Comment['visibility'];
  created_at: string;
  edited_at: string | null;
}

export function presentComment(row: CommentRow): Comment {
  return {
    id: row.id,
    author: person(row.author_id, row.author_name),
    body: presentRichText(row.body_format, row.body_text),
    visibility: row.visibility,
    created_at: toTimestamp(row.created_at),
    edited_at: toTimestamp(row.edited_at),
  };
}

export interface WorklogRow {
  id: string;
  author_id: string | null;
  author_name: string | null;
  started_at: string;
  time_spent_seconds: number;
  body_format: string | null;
  body_text: string | null;
  created_at: string;
  edited_at: string | null;
}

export function presentWorklog(row: WorklogRow): Worklog {
  return {
    id: row.id,
    author: person(row.author_id, row.author_name),
    started_at: toTimestamp(row.started_at),
    time_spent_seconds: row.time_spent_seconds,
    time_spent: formatDuration(row.time_spent_seconds),
    body: presentRichText(row.body_format, row.body_text),
    created_at: toTimestamp(row.created_at),
    edited_at: toTimestamp(row.edited_at),
  };
}
