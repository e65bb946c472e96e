import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledTemplate } from '../../src/storage/compiled-template.ts';
import type { DB } from '../../src/storage/schema.ts';

// Issue 15: a hot statement compiled once per database handle (the bearer lookup). Compiling needs
// no connection: the pool below is never asked for one.
const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ max: 1 }) }) });
afterAll(() => db.destroy());

describe('a compiled template: one statement text, each call binding its own values', () => {
  it('gives every call the same text with that call\'s values, in their places', () => {
    const template = compiledTemplate(2, (a: number, b: string) => sql<{ x: number }>`select ${a} + length(${b}) as x where ${'fixed'} <> ''`);
    const first = template(db, 1, 'one');
    const second = template(db, 2, 'two');
    expect(first.sql).toBe('select $1 + length($2) as x where $3 <> \'\'');
    expect(second.sql).toBe(first.sql);
    expect(first.parameters).toEqual([1, 'one', 'fixed']);
    expect(second.parameters).toEqual([2, 'two', 'fixed']);
  });
});

describe('a compiled template binds an argument in every place it lands', () => {
  it('gives each call its own value in both places of an argument used twice', () => {
    const twice = compiledTemplate(2, (a: string, b: number) => sql`select ${a}, ${b}, ${a}`);
    const first = twice(db, 'x', 1);
    const second = twice(db, 'y', 2);
    expect(second.sql).toBe('select $1, $2, $3');
    expect(first.parameters).toEqual(['x', 1, 'x']);
    expect(second.parameters).toEqual(['y', 2, 'y']);
  });
});

describe('a compiled template refuses an argument that is not a value of its own', () => {
  it('refuses one that chooses the statement\'s shape', () => {
    const shaped = compiledTemplate(1, (admin: boolean) => (admin ? sql`select 1` : sql`select 2`));
    expect(() => shaped(db, false)).toThrow(/argument 0 is not a parameter/);
  });

  it('refuses one turned into another value, which a later call would not bind', () => {
    const computed = compiledTemplate(1, (key: string) => sql`select ${key.toUpperCase()}`);
    expect(() => computed(db, 'atr-1')).toThrow(/argument 0 is not a parameter/);
  });
});
