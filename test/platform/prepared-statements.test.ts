import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/storage/database.ts';
import { MAX_PREPARED_PER_CONNECTION, PREPARE } from '../../src/storage/prepared.ts';
import type { DB } from '../../src/storage/schema.ts';
import { openTestDatabase } from '../helpers/database.ts';

// ADR 0035: marked statements are prepared once per connection (src/storage/prepared.ts), and a
// connection keeps a bounded number of them. Each test runs in one transaction, so on one
// connection, whose pg_prepared_statements it reads.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** A marked statement of its own text for `n`, and what it answers. */
async function runMarked(db: Kysely<DB>, n: number): Promise<{ n: number; tag: string }> {
  const { rows } = await sql<{ n: number; tag: string }>`${sql.raw(PREPARE)} select ${n}::int as n, ${sql.lit(`tag ${n}`)} as tag`.execute(
    db,
  );
  return rows[0]!;
}

const preparedCount = async (db: Kysely<DB>) =>
  (await sql<{ count: number }>`select count(*)::int as count from pg_prepared_statements`.execute(db)).rows[0]!.count;

describe('a marked statement is prepared once per connection', () => {
  it('prepares it at its first run and runs the same statement after', async () => {
    await database.db.transaction().execute(async (trx) => {
      const before = await preparedCount(trx);
      expect(await runMarked(trx, 1_000_001)).toEqual({ n: 1_000_001, tag: 'tag 1000001' });
      const after = await preparedCount(trx);
      expect(after).toBe(before + 1);
      expect(await runMarked(trx, 1_000_001)).toEqual({ n: 1_000_001, tag: 'tag 1000001' });
      expect(await preparedCount(trx)).toBe(after);
    });
  });
});

describe(`a connection keeps at most ${MAX_PREPARED_PER_CONNECTION} statements prepared`, () => {
  it('deallocates them when one more is needed, and prepares again those run later', async () => {
    await database.db.transaction().execute(async (trx) => {
      const shapes = MAX_PREPARED_PER_CONNECTION + 30;
      let most = 0;
      for (let n = 0; n < shapes; n += 1) {
        expect(await runMarked(trx, n)).toEqual({ n, tag: `tag ${n}` });
        if (n % 10 === 0) most = Math.max(most, await preparedCount(trx));
      }
      most = Math.max(most, await preparedCount(trx));
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(MAX_PREPARED_PER_CONNECTION);
      // the first ones were deallocated: run again, they are prepared again and answer as before
      for (let n = 0; n < 5; n += 1) expect(await runMarked(trx, n)).toEqual({ n, tag: `tag ${n}` });
      expect(await preparedCount(trx)).toBeLessThanOrEqual(MAX_PREPARED_PER_CONNECTION);
    });
  });
});
