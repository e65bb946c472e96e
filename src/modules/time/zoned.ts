import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { isTimeZone, toTimestamp } from '../../core/time.ts';

const WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,6})?)?(Z|[+-]\d\d:?\d\d)$/i;
const LOCAL = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d(?::\d\d(?:\.\d{1,6})?)?)$/;
const DAY = /^\d{4}-\d\d-\d\d$/;
const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/**
 * The time zone a request's days and local times are read in: the one it gives (an IANA name,
 * checked), else — through MCP, whose time tools take the member's own zone (spec 4.8), and on
 * the member's own pages — the member's, else none.
 */
export async function requestZone(ctx: Context, given: string | undefined, pointer = '/timezone'): Promise<string | null> {
  if (given !== undefined) {
    if (!isTimeZone(given.trim())) throw invalid(pointer, `"${given}" is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`);
    return given.trim();
  }
  return ctx.door === 'mcp' || ctx.door === 'web' ? memberZone(ctx) : null;
}

/** The zone lists and reports count days in: the one given, else the member's own (the answer says which). */
export async function listZone(ctx: Context, given: string | undefined): Promise<string> {
  return (await requestZone(ctx, given)) ?? memberZone(ctx);
}

async function memberZone(ctx: Context): Promise<string> {
  const row = await ctx.db.selectFrom('members').select('timezone').where('id', '=', ctx.actor.memberId).executeTakeFirst();
  return row?.timezone ?? 'UTC';
}

function real(date: string, pointer: string): void {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) throw invalid(pointer, `"${date}" is not a date`);
}

/** A local wall-clock time in a zone as an instant (PostgreSQL's rules for gaps and overlaps at daylight-saving changes). */
export async function localToInstant(ctx: Pick<Context, 'db'>, local: string, zone: string): Promise<string> {
  const { rows } = await sql<{ at: string }>`select (${local}::timestamp at time zone ${zone})::text as at`.execute(ctx.db);
  return toTimestamp(rows[0]!.at);
}

/** The instants two days of a zone begin, in one round trip (a list's `from`, and the day after its `to`). */
export async function dayStarts(ctx: Pick<Context, 'db'>, days: readonly [string | null, string | null], zone: string): Promise<[string | null, string | null]> {
  if (days[0] === null && days[1] === null) return [null, null];
  const { rows } = await sql<{ a: string | null; b: string | null }>`
    select (${days[0]}::timestamp at time zone ${zone})::text as a, (${days[1]}::timestamp at time zone ${zone})::text as b
  `.execute(ctx.db);
  return [rows[0]!.a === null ? null : toTimestamp(rows[0]!.a), rows[0]!.b === null ? null : toTimestamp(rows[0]!.b)];
}

/** The local day (`YYYY-MM-DD`) an instant falls on in a zone. */
export async function localDay(ctx: Pick<Context, 'db'>, instant: string, zone: string): Promise<string> {
  const { rows } = await sql<{ day: string }>`select to_char((${instant}::timestamptz at time zone ${zone}), 'YYYY-MM-DD') as day`.execute(ctx.db);
  return rows[0]!.day;
}

/**
 * A time of a request as an instant (spec 4.6): ISO 8601 with an offset stands alone; a local
 * time or a day needs a zone; `HH:MM` (where `clockDay` is given: a stop's end) is on that local day.
 */
export async function parseWhen(ctx: Context, value: string, zone: string | null, pointer: string, clockDay?: string): Promise<string> {
  const text = value.trim();
  if (WITH_OFFSET.test(text)) {
    const parsed = new Date(text);
    real(text.slice(0, 10), pointer);
    if (Number.isNaN(parsed.getTime())) throw invalid(pointer, `"${value}" is not a time`);
    return parsed.toISOString();
  }
  const clock = clockDay !== undefined ? CLOCK.exec(text) : null;
  const local = LOCAL.exec(text);
  const isDay = DAY.test(text);
  if (!clock && !local && !isDay) {
    const forms = clockDay !== undefined ? 'ISO 8601 with an offset, a local time YYYY-MM-DDTHH:MM, or HH:MM on the start’s day' : 'ISO 8601 with an offset, a local time YYYY-MM-DDTHH:MM, or a day YYYY-MM-DD';
    throw invalid(pointer, `"${value}" is not a time; write ${forms}`);
  }
  if (zone === null) throw invalid('/timezone', `is required with a local time or a day (${pointer.slice(1)} is "${value}"); give an IANA name such as Europe/Berlin, or a time with an offset`);
  if (clock) return localToInstant(ctx, `${clockDay}T${clock[1]!.padStart(2, '0')}:${clock[2]}`, zone);
  if (isDay) {
    real(text, pointer);
    return localToInstant(ctx, `${text}T00:00`, zone);
  }
  real(local![1]!, pointer);
  return localToInstant(ctx, text, zone);
}
