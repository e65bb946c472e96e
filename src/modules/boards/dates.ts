import { invalid } from '../../core/errors.ts';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A sprint date as given (spec 2.1): `YYYY-MM-DD` is midnight UTC, or an ISO 8601 time with a
 * zone. Returned as text PostgreSQL reads as timestamptz, so microseconds given are kept.
 */
export function parseSprintDate(value: string, pointer: string): string {
  const text = value.trim();
  const day = DATE_ONLY.exec(text);
  if (day) {
    const midnight = `${text}T00:00:00Z`;
    const parsed = new Date(midnight);
    if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text) throw invalid(pointer, `"${text}" is not a date`);
    return midnight;
  }
  if (DATE_TIME.test(text) && !Number.isNaN(new Date(text).getTime())) {
    const datePart = text.slice(0, 10);
    if (new Date(`${datePart}T00:00:00Z`).toISOString().slice(0, 10) !== datePart) throw invalid(pointer, `"${text}" is not a date`);
    return text;
  }
  throw invalid(pointer, `"${text}" is not a date; give YYYY-MM-DD (midnight UTC) or an ISO 8601 time such as 2026-03-02T09:00:00Z`);
}

export function parseOptionalDate(value: string | null | undefined, pointer: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  return parseSprintDate(value, pointer);
}
