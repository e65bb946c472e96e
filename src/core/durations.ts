import { ApiError } from './errors.ts';

/** Spec 8: a day in a duration is 8 hours, a week 5 days. */
export const MINUTE = 60;
export const HOUR = 60 * MINUTE;
export const DAY = 8 * HOUR;
export const WEEK = 5 * DAY;

/** The most a stored duration holds (a 32-bit integer of seconds, about 68 years). */
export const MAX_SECONDS = 2_147_483_647;

const UNITS: Record<string, number> = { w: WEEK, d: DAY, h: HOUR, m: MINUTE, s: 1 };
const PART = /(\d+(?:\.\d+)?)\s*([wdhms])/gy;

/**
 * Seconds in a duration written in words (`1h 30m`, `45m`, `2d`, `1w`, `1.5h`), or null when the
 * text is not a duration. Zero is not a duration (spec 4.2).
 */
export function parseDuration(text: string): number | null {
  const compact = text.trim().toLowerCase();
  if (compact === '') return null;
  let seconds = 0;
  let index = 0;
  const seen = new Set<string>();
  while (index < compact.length) {
    while (compact[index] === ' ') index += 1;
    if (index >= compact.length) break;
    PART.lastIndex = index;
    const match = PART.exec(compact);
    if (!match) return null;
    const [, amount = '', unit = ''] = match;
    if (seen.has(unit)) return null;
    seen.add(unit);
    seconds += Number(amount) * (UNITS[unit] ?? 0);
    index = PART.lastIndex;
  }
  const whole = Math.round(seconds);
  return whole > 0 && whole <= MAX_SECONDS ? whole : null;
}

/** Seconds as words, largest units first: 5400 → `1h 30m`, 28800 → `1d`, 144000 → `1w`. */
export function formatDuration(totalSeconds: number): string {
  let rest = Math.max(0, Math.round(totalSeconds));
  const parts: string[] = [];
  for (const [unit, size] of Object.entries(UNITS)) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return parts.length ? parts.join(' ') : '0m';
}

/** A duration from a request: words or whole seconds; anything else is 422 `invalid_duration`. */
export function durationSeconds(input: { words?: string; seconds?: number }, pointer: string): number {
  if (input.words !== undefined) {
    const seconds = parseDuration(input.words);
    if (seconds === null) {
      throw new ApiError(
        'invalid_duration',
        `${pointer}: "${input.words}" is not a duration; write it like 1h 30m, 45m, 2d or 1w (a day is 8 hours, a week 5 days)`,
      );
    }
    return seconds;
  }
  if (input.seconds !== undefined && Number.isInteger(input.seconds) && input.seconds > 0 && input.seconds <= MAX_SECONDS)
    return input.seconds;
  if (input.seconds !== undefined && input.seconds > MAX_SECONDS) {
    throw new ApiError('invalid_duration', `${pointer}: a duration is at most ${MAX_SECONDS} seconds (about 68 years)`);
  }
  throw new ApiError('invalid_duration', `${pointer}: a duration must be more than zero seconds`);
}
