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

describe('a compiled template refuses an argument that is not exactly one value', () => {
  it('refuses one that chooses the statement\'s shape', () => {
    const shaped = compiledTemplate(1, (admin: boolean) => (admin ? sql`select 1` : sql`select 2`));
    expect(() => shaped(db, false)).toThrow(/argument 0 is not exactly one parameter/);
  });

  it('refuses one used twice, whose second place a later call would not bind apart', () => {
    const twice = compiledTemplate(1, (a: string) => sql`select ${a}, ${a}`);
    expect(() => twice(db, 'x')).toThrow(/argument 0 is not exactly one parameter/);
  });
});
