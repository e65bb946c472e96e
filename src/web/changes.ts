import type { HistoryChange } from '../storage/schema.ts';
import { html, type Html } from './html.ts';

const LONGEST = 120;

/** How a value in a history or audit entry reads: booleans as `booleans` says (a switch is on or off). */
function describeValue(value: unknown, booleans: readonly [string, string]): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'boolean') return value ? booleans[0] : booleans[1];
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return value.length > LONGEST ? `${value.slice(0, LONGEST)}…` : value;
  if (Array.isArray(value)) return value.length ? value.map((item) => describeValue(item, booleans)).join(', ') : 'none';
  if (typeof value === 'object') {
    const named = value as { name?: unknown; visibility?: unknown; text?: unknown };
    if (typeof named.name === 'string') return named.name;
    // a rich text (description, environment) by its words
    if (typeof named.text === 'string') return describeValue(named.text, booleans);
    // a comment is recorded by its id and visibility: its words are on the ticket, not in the log
    if (typeof named.visibility === 'string') return `a ${named.visibility} comment`;
  }
  const json = JSON.stringify(value);
  return json.length > LONGEST ? `${json.slice(0, LONGEST)}…` : json;
}

/**
 * One change as a line: `field: before → after`, or `field: after` when there was nothing before.
 * `switches` reads booleans as on/off (the audit log's settings), else yes/no.
 */
export function describeChange(change: HistoryChange, switches = false): Html {
  const words: readonly [string, string] = switches ? ['on', 'off'] : ['yes', 'no'];
  const after = describeValue(change.to, words);
  const afterShown = typeof change.to === 'boolean' && switches ? html`<strong class="${after}">${after}</strong>` : html`<strong>${after}</strong>`;
  if (change.from === null || change.from === undefined) return html`<span class="change">${change.field}: ${afterShown}</span>`;
  return html`<span class="change">${change.field}: ${describeValue(change.from, words)} → ${afterShown}</span>`;
}

export function describeChanges(changes: readonly HistoryChange[], switches = false): Html {
  return html`${changes.map((change) => describeChange(change, switches))}`;
}
