import { sql, type Kysely } from 'kysely';
import type { DB } from '../storage/schema.ts';
import { invalid } from './errors.ts';
import { isTimeZone } from './time.ts';

/**
 * The one reader of the dates and times requests give (spec 2.1, 4.6, 4.7). Every one is held to
 * the years 0001–9999 once it is in UTC — what PostgreSQL, JSON dates and the spec's timestamp
 * form all hold — and refused with 422 `invalid` naming its field otherwise, so nothing
 * unrepresentable is stored. A local time is read in an IANA zone by PostgreSQL, whose rules
 * (a time skipped by a clock change reads with the offset before it, a repeated one with the
 * offset after it) the time module's days and reports use too.
 */

const FIRST_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');
const RANGE = 'is outside the years 0001–9999 (in UTC)';

const DAY = /^(\d{4})-(\d\d)-(\d\d)$/;
const WITH_OFFSET = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?(Z|[+-]\d\d(?::?\d\d)?)$/i;
const LOCAL = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,6}))?)?$/i;
const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** Milliseconds since 1970 of a UTC wall-clock time; years below 100 too (Date.UTC reads 1 as 1901). */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

/** Whether year, month and day name a day of the years 0001–9999. */
function realDay(year: number, month: number, day: number): boolean {
  const date = new Date(utcMs(year, month, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether a text is a day, `YYYY-MM-DD`, of the years 0001–9999 (a due date, a filter's `from`). */
export function isDay(text: string): boolean {
  const match = DAY.exec(text);
  return match !== null && realDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** Whether a moment, in milliseconds since 1970, is in the years 0001–9999 in UTC. */
export const inRange = (ms: number): boolean => ms >= FIRST_MS && ms <= LAST_MS;

/**
 * Whether a text is an ISO 8601 date and time with an offset whose moment is in the years
 * 0001–9999 in UTC (the `date-time` format of the schemas, core/validation.ts).
 */
export function isDateTimeInRange(text: string): boolean {
  const ms = offsetMoment(text);
  return ms !== null && inRange(ms);
}

/** Year, month, day, hour, minute and second of a matched date and time (groups 1 to 6). */
function fieldsOf(match: RegExpExecArray): [number, number, number, number, number, number] {
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(match[i] ?? 0));
  return [year!, month!, day!, hour!, minute!, second!];
}

/** Whether a matched date and time is a real one: a day of the years 0001–9999, a time of a day. */
function realTime(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second] = fieldsOf(match);
  return realDay(year, month, day) && hour <= 23 && minute <= 59 && second <= 59;
}

/** The moment of an ISO 8601 time with an offset (null: not one, or not a real date and time). */
function offsetMoment(text: string): number | null {
  const match = WITH_OFFSET.exec(text);
  if (!match) return null;
  if (!realTime(match)) return null;
  const [year, month, day, hour, minute, second] = fieldsOf(match);
  const zone = match[8]!.toUpperCase();
  const [, sign = '+', hh = '0', mm = '0'] = zone === 'Z' ? [] : (/^([+-])(\d\d):?(\d\d)?$/.exec(zone) ?? []);
  if (Number(hh) > 23 || Number(mm) > 59) return null;
  const offset = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  const ms = Number(`0.${match[7] ?? '0'}`) * 1000;
  return utcMs(year, month, day, hour, minute, second, Math.floor(ms)) - offset * 60_000;
}

/**
 * The moment of a time with an offset that stands alone (ISO 8601, `Z` or `±HH[:MM]`), in
 * milliseconds; null when the text has another shape; 422 on `pointer` when it is not a real
 * date and time or falls outside the years 0001–9999 in UTC.
 */
export function momentWithOffset(given: string, pointer: string): number | null {
  const text = given.trim();
  if (!WITH_OFFSET.test(text)) return null;
  const ms = offsetMoment(text);
  if (ms === null) throw invalid(pointer, `"${given}" is not a real date and time`);
  if (!inRange(ms)) throw invalid(pointer, `"${given}" ${RANGE}`);
  return ms;
}

/** A day of a request (`YYYY-MM-DD`); 422 on `pointer` when it is not a real one of the years 0001–9999. */
export function checkDay(given: string, pointer: string): string {
  const text = given.trim();
  if (!isDay(text)) throw invalid(pointer, `"${given}" is not a date in the years 0001–9999`);
  return text;
}

const unknownZone = (zone: string, pointer: string) =>
  invalid(pointer, `"${zone}" is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`);

const ZONE_UNKNOWN_TO_DATABASE = '22023';

// Whether the database reads a zone Node knows, by name in lower case: a few hundred at most, as
// only names Node knows are asked about, and the answer holds for the life of the process.
const databaseZones = new Map<string, boolean>();

/** Whether the database reads a zone (its time zone data may be older or newer than Node's). */
async function databaseKnows(db: Kysely<DB>, zone: string): Promise<boolean> {
  const key = zone.toLowerCase();
  let known = databaseZones.get(key);
  if (known === undefined) {
    known = await readsZone(db, zone);
    databaseZones.set(key, known);
  }
  return known;
}

/** Asks the database to read a zone; in a transaction behind a savepoint, so a refusal leaves it usable. */
async function readsZone(db: Kysely<DB>, zone: string): Promise<boolean> {
  const inTransaction = db.isTransaction;
  if (inTransaction) await sql`savepoint zone_check`.execute(db);
  try {
    await sql`select now() at time zone ${zone}`.execute(db);
    if (inTransaction) await sql`release savepoint zone_check`.execute(db);
    return true;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== ZONE_UNKNOWN_TO_DATABASE) throw error;
    if (inTransaction) await sql`rollback to savepoint zone_check`.execute(db);
    return false;
  }
}

/**
 * An IANA time zone of a request, checked: one Node and the database both read, since days and
 * reports are counted in the database. 422 on `pointer` when it is none.
 */
export async function checkZone(db: Kysely<DB>, zone: string, pointer = '/timezone'): Promise<string> {
  const name = zone.trim();
  if (!isTimeZone(name) || !(await databaseKnows(db, name))) throw unknownZone(zone, pointer);
  return name;
}

/** A zone stored with a member, as lists count days in it: UTC when the database cannot read it. */
export async function usableZone(db: Kysely<DB>, zone: string | null): Promise<string> {
  return zone !== null && isTimeZone(zone) && (await databaseKnows(db, zone)) ? zone : 'UTC';
}

/**
 * Local wall-clock times (`YYYY-MM-DDTHH:MM[:SS[.ffffff]]`) in a zone (checked: checkZone) as
 * milliseconds since 1970, in one round trip.
 */
async function localMoments(db: Kysely<DB>, locals: readonly string[], zone: string): Promise<number[]> {
  const { rows } = await sql<{ epoch: string }>`
    select extract(epoch from (l::timestamp at time zone ${zone}))::text as epoch
    from unnest(${[...locals]}::text[]) with ordinality as x(l, n) order by n
  `.execute(db);
  return rows.map((r) => epochMs(r.epoch));
}

/** PostgreSQL's epoch text ("1774747800.123456", "-62135596800.000000") in milliseconds, exactly. */
function epochMs(epoch: string): number {
  const negative = epoch.startsWith('-');
  const [whole = '0', fraction = ''] = epoch.replace(/^-/, '').split('.');
  const ms = Number(whole) * 1000 + Number(fraction.padEnd(3, '0').slice(0, 3));
  return negative ? -ms : ms;
}

export interface MomentRules {
  /** A day alone (`YYYY-MM-DD`) is taken, as its midnight in the zone. */
  days?: boolean;
  /** `HH:MM` is taken, on this local day (`YYYY-MM-DD`) in the zone. */
  clockOn?: string;
  /** The field that holds the zone, for its errors. */
  zonePointer?: string;
}

const SHAPES = 'must be ISO 8601 with an offset (2026-03-02T14:30:00+01:00) or a local time (2026-03-02T14:30) with `timezone`';

function forms(rules: MomentRules): string {
  if (rules.clockOn !== undefined) return `${SHAPES}, or HH:MM on the start’s day`;
  return rules.days ? `${SHAPES}, or a day (2026-03-02) with \`timezone\`` : SHAPES;
}

/**
 * A time a request gives, as the moment it means (ISO 8601 in UTC, `Date.toISOString`): ISO 8601
 * with an offset stands alone; a local time, a day (where `days`) or `HH:MM` (where `clockOn`)
 * needs `zone`. 422 `invalid` on `pointer` when it is none of these, is not a real date, or falls
 * outside the years 0001–9999 in UTC; on the zone's field when the zone is missing or unknown.
 */
export async function parseMoment(
  db: Kysely<DB>,
  given: string,
  zone: string | null | undefined,
  pointer: string,
  rules: MomentRules = {},
): Promise<string> {
  const text = given.trim();
  const zonePointer = rules.zonePointer ?? '/timezone';
  const shown = `"${given}"`;
  const stands = momentWithOffset(given, pointer);
  if (stands !== null) return new Date(stands).toISOString();
  const clock = rules.clockOn !== undefined ? CLOCK.exec(text) : null;
  const local = LOCAL.exec(text);
  const day = rules.days ? DAY.exec(text) : null;
  if (!clock && !local && !day) throw invalid(pointer, forms(rules));
  if (local && !realTime(local)) throw invalid(pointer, `${shown} is not a real date and time`);
  if (day) checkDay(text, pointer);
  if (zone === null || zone === undefined) {
    const why = `is required with a local time (${pointer.slice(1)} is ${shown})`;
    throw invalid(zonePointer, `${why}; give an IANA time zone such as Europe/Berlin, or a time with an offset`);
  }
  const wall = clock
    ? `${rules.clockOn}T${clock[1]!.padStart(2, '0')}:${clock[2]}`
    : day
      ? `${text}T00:00`
      : `${text.slice(0, 10)}T${text.slice(11)}`;
  const [ms] = await localMoments(db, [wall], await checkZone(db, zone, zonePointer));
  if (!inRange(ms!)) throw invalid(pointer, `${shown} ${RANGE}`);
  return new Date(ms!).toISOString();
}

/**
 * The moments a span of days of a zone begins and ends (`from`'s midnight; the midnight after
 * `to`), for a list or a report: a bound outside the years 0001–9999 in UTC is no bound, as
 * nothing is stored beyond them. Days are checked by the schema (`format: date`), the zone by
 * checkZone or usableZone.
 */
export async function daySpan(
  db: Kysely<DB>,
  from: string | null,
  to: string | null,
  zone: string,
): Promise<[string | null, string | null]> {
  if (from === null && to === null) return [null, null];
  const walls = [...(from ? [`${from}T00:00`] : []), ...(to ? [nextLocalDay(to)] : [])];
  const moments = await localMoments(db, walls, zone);
  const bound = (ms: number | undefined) => (ms === undefined || !inRange(ms) ? null : new Date(ms).toISOString());
  return [from ? bound(moments[0]) : null, to ? bound(moments[walls.length - 1]) : null];
}

/** The local midnight after a day, as a wall-clock text PostgreSQL reads (`10000-01-01` too). */
function nextLocalDay(day: string): string {
  const date = new Date(utcMs(Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10)) + 1));
  const digits = (n: number, width: number) => String(n).padStart(width, '0');
  const year = digits(date.getUTCFullYear(), 4);
  return `${year}-${digits(date.getUTCMonth() + 1, 2)}-${digits(date.getUTCDate(), 2)}T00:00`;
}
