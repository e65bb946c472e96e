import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDateTimeInRange, isDay } from '../../src/core/moments.ts';
import { dateToTimestamp, timestampText, toTimestamp } from '../../src/core/time.ts';
import type { Database } from '../../src/storage/database.ts';
import { openTestDatabase } from '../helpers/database.ts';

describe('timestamps: ISO 8601 in UTC with microseconds (spec 2.1)', () => {
  it.each([
    ['2026-01-02 03:04:05.123456+00', '2026-01-02T03:04:05.123456Z'],
    ['2026-01-02 03:04:05.6+00', '2026-01-02T03:04:05.600000Z'],
    ['2026-01-02 03:04:05+00', '2026-01-02T03:04:05.000000Z'],
    ['2026-01-02 03:04:05.123456+00:00', '2026-01-02T03:04:05.123456Z'],
    ['2026-01-02T03:04:05.123456Z', '2026-01-02T03:04:05.123456Z'],
    ['2026-01-02T03:04:05.1234567Z', '2026-01-02T03:04:05.123456Z'],
  ])('%s → %s', (stored, shown) => {
    expect(toTimestamp(stored)).toBe(shown);
  });

  it('turns an offset other than UTC into UTC', () => {
    expect(toTimestamp('2026-01-02 05:04:05.5+02')).toBe('2026-01-02T03:04:05.500000Z');
  });

  it('keeps null as null', () => {
    expect(toTimestamp(null)).toBeNull();
  });

  it('refuses text that is not a timestamp', () => {
    expect(() => toTimestamp('yesterday')).toThrow();
  });

  it("refuses text of a full timestamp's length with a letter or a wrong separator in it", () => {
    expect(() => toTimestamp('2026-01-02 03:04:05.12345x+00')).toThrow();
    expect(() => toTimestamp('2026-01-02 03:04:05,123456+00')).toThrow();
    expect(() => toTimestamp('2026/01/02 03:04:05.123456+00')).toThrow();
  });

  it('reads a full timestamp the same with a space or a T, and one before the year 1000 as well', () => {
    expect(toTimestamp('2026-11-28 23:59:59.999999+00')).toBe('2026-11-28T23:59:59.999999Z');
    expect(toTimestamp('2026-11-28T23:59:59.999999+00')).toBe('2026-11-28T23:59:59.999999Z');
    expect(toTimestamp('0999-01-01 00:00:00.000001+00')).toBe('0999-01-01T00:00:00.000001Z');
  });

  it('writes a Date with six fraction digits', () => {
    expect(dateToTimestamp(new Date(Date.UTC(2026, 10, 22, 5, 30, 0, 7)))).toBe('2026-11-22T05:30:00.007000Z');
  });
});

describe('timestamps: written by the database in the same form as toTimestamp writes them (spec 2.1)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it.each([
    '2026-01-02 03:04:05.123456+00',
    '2026-01-02 03:04:05.120000+00',
    '2026-01-02 03:04:05+00',
    '2026-12-31 23:59:59.999999+00',
    '0999-01-01 00:00:00.000001+00',
    '2026-01-02 05:04:05.5+02',
  ])('%s', async (stored) => {
    // a session in another zone: the text is UTC's all the same
    const row = await database.db.transaction().execute(async (trx) => {
      await sql`set local time zone 'America/St_Johns'`.execute(trx);
      const at = sql`${stored}::timestamptz`;
      const { rows } = await sql<{ shown: string; utc: string }>`
        select ${timestampText(at)} as shown, (${at} at time zone 'UTC')::text as utc`.execute(trx);
      return rows[0]!;
    });
    expect(row.shown).toBe(toTimestamp(`${row.utc}+00`));
    expect(row.shown).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });
});

describe('dates and times a request gives: the years 0001–9999, in UTC (core/moments.ts)', () => {
  it.each([
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['2028-02-29', true],
    ['0000-12-31', false],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['10000-01-01', false],
    ['0099-03-01', true],
  ])('day %s: %s', (text, taken) => {
    expect(isDay(text)).toBe(taken);
  });

  it.each([
    ['0001-01-01T00:00:00Z', true],
    ['0001-01-01T00:59:59+01:00', false],
    ['0001-01-01T00:00:00-00:01', true],
    ['9999-12-31T23:59:59.999Z', true],
    ['9999-12-31T23:00:00-01:00', false],
    ['9999-12-31T10:00:00-12', true],
    ['2026-03-02 14:30+01', true],
    ['2026-03-02T24:00:00Z', false],
    ['2026-02-30T10:00:00Z', false],
    ['2026-03-02T14:30:00', false],
  ])('time %s: %s', (text, taken) => {
    expect(isDateTimeInRange(text)).toBe(taken);
  });
});
