import { formatDuration } from '../core/durations.ts';

/** A stored notification as the notifications page and an email both tell it. */
export interface StoredNotification {
  kind: string;
  entity_type: string;
  payload: Record<string, unknown>;
}

export interface NotificationText {
  /** What happened, in one line: `Lee Lead commented on ATR-12`. */
  headline: string;
  /** The record it is about, as people name it (`ATR-12`), and the page that shows it. */
  subject: string | null;
  link: string | null;
  /** A few more words, where the change carries them (a comment's first lines). */
  detail: string | null;
  /** Who made the change, and through which agent (a token's or an application's name). */
  by: string | null;
  via: string | null;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function excerpt(markdown: unknown): string | null {
  const text = str(markdown);
  if (!text) return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 280 ? `${flat.slice(0, 277)}…` : flat;
}

function ticketHeadline(
  kind: string,
  payload: Record<string, unknown>,
  by: string,
  key: string,
): { headline: string; detail: string | null } {
  switch (kind) {
    case 'created':
      return { headline: `${by} created ${key}`, detail: str(payload.summary) };
    case 'updated':
      return { headline: `${by} changed ${key}`, detail: Array.isArray(payload.changes) ? `Changed: ${payload.changes.join(', ')}` : null };
    case 'transitioned':
      return {
        headline: `${by} moved ${key} from ${str(payload.from) ?? '?'} to ${str(payload.to) ?? '?'}`,
        detail: excerpt(payload.comment),
      };
    case 'assigned': {
      const assignee = (payload.assignee as { name?: string } | null)?.name;
      return { headline: assignee ? `${by} assigned ${key} to ${assignee}` : `${by} unassigned ${key}`, detail: excerpt(payload.comment) };
    }
    case 'commented':
      return { headline: `${by} commented on ${key}`, detail: excerpt(payload.body) };
    case 'worklog':
      return {
        headline: `${by} logged ${typeof payload.time_spent_seconds === 'number' ? formatDuration(payload.time_spent_seconds) : 'work'} on ${key}`,
        detail: null,
      };
    case 'mentioned':
      return { headline: `${by} mentioned you on ${key}`, detail: excerpt(payload.comment ?? payload.body ?? payload.description) };
    default:
      return { headline: `${by} changed ${key}`, detail: null };
  }
}

/** The words for a notification; `publicUrl` makes its link. */
export function describeNotification(notification: StoredNotification, publicUrl: string): NotificationText {
  const payload = notification.payload;
  const by = str((payload.by as { name?: string } | undefined)?.name);
  const via = str(payload.via);
  const base = publicUrl.replace(/\/+$/, '');
  if (notification.kind === 'reminder') {
    const subject = str(payload.subject);
    return {
      headline: `Reminder: ${subject ?? 'a follow-up'} is due`,
      subject,
      link: str(payload.path) ? `${base}${payload.path}` : null,
      detail: str(payload.due_at),
      by: null,
      via: null,
    };
  }
  if (notification.entity_type === 'ticket') {
    const key = str(payload.key) ?? 'a ticket';
    const { headline, detail } = ticketHeadline(notification.kind, payload, by ?? 'Someone', key);
    return { headline, subject: key, link: `${base}/browse/${key}`, detail, by, via };
  }
  return { headline: `${by ?? 'Someone'} changed a ${notification.entity_type}`, subject: null, link: null, detail: null, by, via };
}
