import { sql, type RawBuilder } from 'kysely';

/**
 * PostgreSQL's text form of a timestamptz in UTC ("2026-01-02 03:04:05.6+00") as the spec's
 * ISO 8601 with exactly six fraction digits ("2026-01-02T03:04:05.600000Z").
 */
export function toTimestamp(value: string): string;
export function toTimestamp(value: string | null): string | null;
export function toTimestamp(value: string | null): string | null {
  if (value === null) return null;
  if (isFullUtcText(value)) return `${value.slice(0, 10)}T${value.slice(11, 26)}Z`;
  const match = /^(\d{4,}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d(?::?\d\d)?)?$/.exec(value);
  if (!match) throw new Error(`unexpected timestamp text: ${value}`);
  const [, date, time, fraction = '', zone = 'Z'] = match;
  if (zone !== 'Z' && !/^[+-]00(:?00)?$/.test(zone)) {
    // Not UTC (should not happen: sessions run in UTC); let Date normalise it, losing microseconds.
    return new Date(value).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  }
  return `${date}T${time}.${fraction.padEnd(6, '0').slice(0, 6)}Z`;
}

/**
 * SQL: a timestamptz in the spec's timestamp form, for a list that passes it on as read.
 * Converting each card's text in JavaScript was about a sixth of what a 1,000-card backlog
 * allocated; written by the statement, the backlog's service CPU fell by about as much and
 * PostgreSQL's hardly moved (ADR 0037).
 */
export function timestampText(column: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** A JS Date (millisecond precision) in the spec's timestamp form. */
export function dateToTimestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Whether a name is an IANA time zone this Node knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.trim() !== '';
  } catch {
    return false;
  }
}

/** Where PostgreSQL's text of a UTC timestamptz with six fraction digits has other than a digit. */
const SEPARATORS: Readonly<Record<number, number>> = { 4: 0x2d, 7: 0x2d, 10: 0x20, 13: 0x3a, 16: 0x3a, 19: 0x2e };

/**
 * "2026-01-02 03:04:05.123456+00", the text most timestamps arrive as: checked a character at a
 * time, it is rewritten without the regular expression's match and parts (a 500-card board read
 * 500 of them per request, about a tenth of the bytes it allocated).
 */
function isFullUtcText(value: string): boolean {
  if (value.length !== 29 || !value.endsWith('+00')) return false;
  for (let i = 0; i < 26; i++) {
    const code = value.charCodeAt(i);
    const separator = SEPARATORS[i];
    if (separator === undefined ? code < 0x30 || code > 0x39 : code !== separator) return false;
  }
  return true;
}
