import { formatDuration } from '../../core/durations.ts';
import { presentRichText } from '../../core/rich-text.ts';
import { toTimestamp } from '../../core/time.ts';
import type { ActivityRow } from './repo.ts';
import type { Activity } from './schemas.ts';

export function spentSeconds(row: Pick<ActivityRow, 'started_at' | 'ended_at'>): number | null {
  if (row.ended_at === null) return null;
  return Math.round((new Date(row.ended_at).getTime() - new Date(row.started_at).getTime()) / 1000);
}

export function presentActivity(row: ActivityRow): Activity {
  const seconds = spentSeconds(row);
  return {
    id: row.id,
    description: row.description,
    started_at: toTimestamp(row.started_at),
    ended_at: toTimestamp(row.ended_at),
    running: row.ended_at === null,
    time_spent_seconds: seconds,
    time_spent: seconds === null ? null : formatDuration(seconds),
    tags: row.tags,
    project: row.project_key ? { key: row.project_key, name: row.project_name! } : null,
    customer: row.customer_id ? { id: row.customer_id, name: row.customer_name! } : null,
    ticket: row.ticket_key ? { key: row.ticket_key, summary: row.ticket_summary! } : null,
    note: presentRichText(row.note === null ? null : 'markdown', row.note),
    billable: row.billable,
    locked: row.locked,
    author: { id: row.member_id, name: row.author_name },
    created_at: toTimestamp(row.created_at),
    edited_at: toTimestamp(row.edited_at),
  };
}
