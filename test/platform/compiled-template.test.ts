import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledTemplate } from '../../src/storage/compiled-template.ts';
import type { Database } from '../../src/storage/database.ts';
import type { DB } from '../../src/storage/schema.ts';
import { openTestDatabase } from '../helpers/database.ts';

// ADR 0036: a hot statement compiled once per database handle (the bearer lookup). Compiling needs
// no connection: the pool below is never asked for one.
const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ max: 1 }) }) });
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await db.destroy();
  await database.close();
});

describe('a compiled template: one statement text, each call binding its own values', () => {
  it("gives every call the same text with that call's values, in their places", () => {
    const template = compiledTemplate(
      2,
      (a: number, b: string) => sql<{ x: number }>`select ${a} + length(${b}) as x where ${'fixed'} <> ''`,
    );
    const first = template(db, 1, 'one');
    const second = template(db, 2, 'two');
    expect(first.sql).toBe("select $1 + length($2) as x where $3 <> ''");
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
  it("refuses one that chooses the statement's shape", () => {
    const shaped = compiledTemplate(1, (admin: boolean) => (admin ? sql`select 1` : sql`select 2`));
    expect(() => shaped(db, false)).toThrow(/argument 0 is not a parameter/);
  });

  it('refuses one turned into another value, which a later call would not bind', () => {
    const computed = compiledTemplate(1, (key: string) => sql`select ${key.toUpperCase()}`);
    expect(() => computed(db, 'atr-1')).toThrow(/argument 0 is not a parameter/);
  });
});

describe('a compiled template binds once an argument that every place casts alike', () => {
  it('names one parameter in each place of an argument cast the same way everywhere', () => {
    const scoped = compiledTemplate(
      2,
      (ids: readonly string[], key: string) =>
        sql`select ${ids}::uuid[] as a, ${key} as k, ${ids}::uuid[] as b, ${'fixed'} as f, ${ids}::uuid[] as c`,
    );
    const ids = Object.freeze(['00000000-0000-0000-0000-000000000001']);
    const query = scoped(db, ids, 'ATR-1');
    expect(query.sql).toBe('select $1::uuid[] as a, $2 as k, $1::uuid[] as b, $3 as f, $1::uuid[] as c');
    expect(query.parameters).toEqual([ids, 'ATR-1', 'fixed']);
    expect(scoped(db, [], 'ATR-2').parameters).toEqual([[], 'ATR-2', 'fixed']);
  });

  it('reads the one parameter in each of its places, on the database', async () => {
    const filtered = compiledTemplate(
      2,
      (ids: readonly string[], other: readonly string[]) =>
        sql<{ id: string; both: boolean }>`select id, (id = any(${ids}::uuid[]) and not id = any(${other}::uuid[])) as both
        from (values ('00000000-0000-0000-0000-000000000001'::uuid), ('00000000-0000-0000-0000-000000000002'::uuid)) as t(id)
        where id = any(${ids}::uuid[]) or id = any(${other}::uuid[]) order by id`,
    );
    const one = Object.freeze(['00000000-0000-0000-0000-000000000001']);
    const two = Object.freeze(['00000000-0000-0000-0000-000000000002']);
    const query = filtered(database.db, one, two);
    expect(query.parameters).toEqual([one, two]);
    const { rows } = await database.db.executeQuery(query);
    expect(rows).toEqual([
      { id: one[0], both: true },
      { id: two[0], both: false },
    ]);
  });

  it('keeps apart the places of an argument cast differently, or left to PostgreSQL to type', () => {
    const mixed = compiledTemplate(2, (a: string, b: string) => sql`select ${a}::text, ${a}::varchar, ${b}, ${b}, ${a}::text`);
    const query = mixed(db, 'x', 'y');
    expect(query.sql).toBe('select $1::text, $2::varchar, $3, $4, $5::text');
    expect(query.parameters).toEqual(['x', 'x', 'y', 'y', 'x']);
  });

  it('leaves a statement alone whose text holds a placeholder Kysely did not write', () => {
    const dollar = compiledTemplate(1, (a: string) => sql`select ${a}::text, '$9' as literal, ${a}::text`);
    const query = dollar(db, 'x');
    expect(query.sql).toBe("select $1::text, '$9' as literal, $2::text");
    expect(query.parameters).toEqual(['x', 'x']);
  });
});
