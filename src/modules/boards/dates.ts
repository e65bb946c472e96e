import { invalid } from '../../core/errors.ts';
import { checkDay, momentWithOffset } from '../../core/moments.ts';

const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A sprint date as given (spec 2.1): `YYYY-MM-DD` is midnight UTC, or an ISO 8601 time with a
 * zone, in the years 0001–9999 (core/moments.ts). Returned as text PostgreSQL reads as
 * timestamptz, so microseconds given are kept.
 */
export function parseSprintDate(value: string, pointer: string): string {
  const text = value.trim();
  if (DAY_SHAPE.test(text)) return `${checkDay(text, pointer)}T00:00:00Z`;
  if (momentWithOffset(text, pointer) !== null) return text;
  throw invalid(pointer, `"${text}" is not a date; give YYYY-MM-DD (midnight UTC) or an ISO 8601 time such as 2026-03-02T09:00:00Z`);
}

export function parseOptionalDate(value: string | null | undefined, pointer: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  return parseSprintDate(value, pointer);
}
