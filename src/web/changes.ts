import { formatDuration } from '../core/durations.ts';
import type { HistoryChange } from '../storage/schema.ts';
import { timeWords } from './format.ts';
import { html, type Html } from './html.ts';

const LONGEST = 120;
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/;

export interface ChangeWords {
  /** Booleans as on/off (the audit log's switches), else yes/no. */
  switches?: boolean;
  /** The reader's time zone: a moment is shown in it. */
  zone?: string;
}

/** A field's name as words: `time_spent_seconds` → `Time spent`, `due_date` → `Due date`. */
export function fieldWords(field: string): string {
  const words = field
    .replace(/_seconds$/, '')
    .replace(/_at$/, '')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How a value in a history or audit entry reads: a duration in words, a moment in the reader's zone, a switch on or off. */
function describeValue(field: string, value: unknown, words: ChangeWords): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'boolean') return words.switches ? (value ? 'on' : 'off') : value ? 'yes' : 'no';
  if (typeof value === 'number' && field.endsWith('_seconds')) return formatDuration(value);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') {
    if (INSTANT.test(value)) return timeWords(value, words.zone ?? 'UTC');
    return value.length > LONGEST ? `${value.slice(0, LONGEST)}…` : value;
  }
  if (Array.isArray(value)) return value.length ? value.map((item) => describeValue(field, item, words)).join(', ') : 'none';
  if (typeof value === 'object') {
    const named = value as { name?: unknown; key?: unknown; visibility?: unknown; text?: unknown };
    if (typeof named.name === 'string') return named.name;
    if (typeof named.key === 'string') return named.key;
    // a rich text (description, environment) by its words
    if (typeof named.text === 'string') return describeValue(field, named.text, words);
    // a comment is recorded by its id and visibility: its words are on the ticket, not in the log
    if (typeof named.visibility === 'string') return `a ${named.visibility} comment`;
  }
  const json = JSON.stringify(value);
  return json.length > LONGEST ? `${json.slice(0, LONGEST)}…` : json;
}

/** One change as a line: `Field: before → after`, or `Field: after` when there was nothing before. */
export function describeChange(change: HistoryChange, words: ChangeWords = {}): Html {
  const after = describeValue(change.field, change.to, words);
  const afterShown =
    typeof change.to === 'boolean' && words.switches ? html`<strong class="${after}">${after}</strong>` : html`<strong>${after}</strong>`;
  const label = words.switches ? change.field : fieldWords(change.field);
  if (change.from === null || change.from === undefined) return html`<span class="change">${label}: ${afterShown}</span>`;
  return html`<span class="change">${label}: ${describeValue(change.field, change.from, words)} → ${afterShown}</span>`;
}

export function describeChanges(changes: readonly HistoryChange[], words: ChangeWords = {}): Html {
  return html`${changes.map((change) => describeChange(change, words))}`;
}
