import { invalid } from '../../core/errors.ts';

/**
 * Moments as log_interaction takes them (spec 4.7): ISO 8601 with an offset (`Z`, `+02:00`), or a
 * local `YYYY-MM-DDTHH:MM` read in the IANA `timezone` given with it.
 */

const WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)$/i;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

const SHAPE = 'must be ISO 8601 with an offset (2026-03-02T14:30:00+01:00) or a local time (2026-03-02T14:30) with `timezone`';

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function fieldsOf(match: RegExpExecArray): Fields | null {
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(match[i] ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!real || hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second };
}

/** Minutes the zone is ahead of UTC at a moment. */
function offsetMinutes(zone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

/** A wall-clock time in a zone as a moment (a time skipped by a clock change reads as the zone's offset before it). */
function zonedToUtc(fields: Fields, zone: string): Date {
  const local = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  let utc = local - offsetMinutes(zone, local) * 60_000;
  utc = local - offsetMinutes(zone, utc) * 60_000;
  return new Date(utc);
}

/** A moment from a request; 422 `invalid` on `pointer` (or `/timezone`) when it is not one. */
export function parseMoment(given: string, timezone: string | undefined, pointer: string): Date {
  const text = given.trim();
  const zoned = WITH_OFFSET.exec(text);
  if (zoned) {
    const fields = fieldsOf(zoned);
    if (!fields) throw invalid(pointer, `"${text}" is not a real date and time`);
    const zone = zoned[8]!.toUpperCase();
    const sign = zone.startsWith('-') ? -1 : 1;
    const [, hh = '0', mm = '0'] = zone === 'Z' ? [] : (/^[+-](\d{2}):?(\d{2})?$/.exec(zone) ?? []);
    const offset = zone === 'Z' ? 0 : sign * (Number(hh) * 60 + Number(mm));
    const fraction = Number(`0.${zoned[7] ?? '0'}`) * 1000;
    const local = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second) + Math.floor(fraction);
    return new Date(local - offset * 60_000);
  }
  const local = LOCAL.exec(text);
  if (!local) throw invalid(pointer, SHAPE);
  const fields = fieldsOf(local);
  if (!fields) throw invalid(pointer, `"${text}" is not a real date and time`);
  if (timezone === undefined) throw invalid('/timezone', `is required with a local time (${pointer.slice(1)} "${text}"): an IANA time zone such as Europe/Berlin`);
  if (!isTimeZone(timezone)) throw invalid('/timezone', `"${timezone}" is not an IANA time zone (such as Europe/Berlin or America/New_York)`);
  return zonedToUtc(fields, timezone);
}
