import { toTimestamp } from '../core/time.ts';

/** A moment as the pages show it: to the minute, in UTC (the pages know no time zone of the reader). */
export function shownTime(value: string | null | undefined): string | null {
  return value ? `${toTimestamp(value).slice(0, 16).replace('T', ' ')} UTC` : null;
}

/** A custom field's key as a label: `deal_value` → `Deal value`. */
export function fieldLabel(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
