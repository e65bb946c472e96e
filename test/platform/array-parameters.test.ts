import { sql } from 'kysely';
import { prepareValue } from 'pg/lib/utils.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/storage/database.ts';
import { withArrayTexts } from '../../src/storage/array-parameters.ts';
import { openTestDatabase } from '../helpers/database.ts';

// ADR 0036: a member's scope is a frozen list shared by a token's requests, and its array text is
// written once per list instead of by pg at every use. What reaches PostgreSQL must not change.

const awkward = ['plain', 'a "quoted" word', 'back\\slash', '{braced}', 'com,ma', '  spaced  ', '', 'NULL', 'é 漢 🙂'];

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('a frozen list of strings is written as pg writes it', () => {
  it("gives the text pg's own writer gives, for awkward elements and for none", () => {
    for (const list of [awkward, [], ['4b1032ab-5365-4013-9b8d-3803fa8ae222']]) {
      const [text] = withArrayTexts([Object.freeze([...list])]);
      expect(text).toBe(prepareValue([...list]));
    }
  });

  it("reaches PostgreSQL as the same array, through the service's own driver", async () => {
    const frozen = Object.freeze([...awkward]);
    const { rows } = await sql<{ v: string[]; n: number }>`select ${frozen}::text[] as v, cardinality(${frozen}::text[]) as n`.execute(
      database.db,
    );
    expect(rows[0]).toEqual({ v: awkward, n: awkward.length });
  });

  it('filters with = any() as the unfrozen list does', async () => {
    const ids = ['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000003'];
    const values = sql`(values ('00000000-0000-0000-0000-000000000001'::uuid), ('00000000-0000-0000-0000-000000000002'::uuid), ('00000000-0000-0000-0000-000000000003'::uuid)) as t(id)`;
    const frozen = await sql<{
      id: string;
    }>`select id from ${values} where id = any(${Object.freeze([...ids])}::uuid[]) order by id`.execute(database.db);
    const plain = await sql<{ id: string }>`select id from ${values} where id = any(${[...ids]}::uuid[]) order by id`.execute(database.db);
    expect(frozen.rows).toEqual(plain.rows);
    expect(frozen.rows.map((r) => r.id)).toEqual(ids);
  });
});

describe('every other parameter is left to pg', () => {
  it('leaves a list that is not frozen, or holds anything but strings, as it is', () => {
    const open = ['a', 'b'];
    const mixed = Object.freeze([1, null, 'x']);
    const values = [open, mixed, 'text', 7, null];
    expect(withArrayTexts(values)).toBe(values);
  });

  it('writes a frozen list of numbers and nulls through pg, as before', async () => {
    const { rows } = await sql<{ v: (number | null)[] }>`select ${Object.freeze([1, null, 3])}::int[] as v`.execute(database.db);
    expect(rows[0]!.v).toEqual([1, null, 3]);
  });
});
