import { toTimestamp } from '../core/time.ts';
import { html, type Html } from './html.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(zone, format);
  }
  return format;
}

/** A moment as words in the reader's time zone: `4 Mar 2026, 14:30`. */
export function timeWords(value: string, zone: string): string {
  return formatIn(zone).format(new Date(toTimestamp(value)));
}

/**
 * A moment as the pages show it: to the minute, in the reader's time zone (members have one;
 * UTC until they set theirs), in a `<time>` that carries the instant and names the zone.
 */
export function shownTime(value: string | null | undefined, zone: string): Html | null {
  if (!value) return null;
  const instant = toTimestamp(value);
  return html`<time datetime="${instant}" title="${zone}">${timeWords(instant, zone)}</time>`;
}

/** A custom field's key as a label: `deal_value` → `Deal value`. */
export function fieldLabel(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
