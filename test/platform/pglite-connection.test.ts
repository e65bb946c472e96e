import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/storage/database.ts';
import { openTestDatabase, postgresServerUrl } from '../helpers/database.ts';

// ADR 0009: the service reaches PGlite through a connection of its own (src/storage/pglite-connection.ts):
// one input to the engine per statement, its answer read by pg's own protocol parser. What a
// statement answers, how it fails and what a NOTIFY reaches must be as on PostgreSQL: these run
// on both engines, and the input count on PGlite only.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe("a statement's answer arrives whole, however long", () => {
  it('reads 20,000 rows of about 4 MB with characters of every width, in order and unchanged', async () => {
    const word = 'Grüße 東京 🚀 ';
    const { rows } = await sql<{ n: number; text: string }>`
      select n, repeat(${word}, 10) || n as text from generate_series(1, 20000) n order by n
    `.execute(database.db);
    expect(rows).toHaveLength(20_000);
    expect(rows.every((row, i) => row.n === i + 1 && row.text === word.repeat(10) + String(i + 1))).toBe(true);
  });
});

describe('a failed statement fails alone', () => {
  it("answers its error with PostgreSQL's code, and the next statements on the connection run", async () => {
    await sql`create table connection_rule (id int primary key)`.execute(database.db);
    await sql`insert into connection_rule values (1)`.execute(database.db);
    await expect(sql`insert into connection_rule values (1)`.execute(database.db)).rejects.toMatchObject({ code: '23505' });
    await expect(sql`select 1 / ${0}::int`.execute(database.db)).rejects.toMatchObject({ code: '22012' });
    const { rows } = await sql<{ count: number }>`select count(*)::int as count from connection_rule`.execute(database.db);
    expect(rows[0]!.count).toBe(1);
  });

  it('leaves nothing of a transaction that failed', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`insert into connection_rule values (2)`.execute(trx);
        await sql`insert into connection_rule values (1)`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await sql<{ id: number }>`select id from connection_rule order by id`.execute(database.db);
    expect(rows.map((r) => r.id)).toEqual([1]);
  });
});

describe('a NOTIFY reaches the listeners of its channel once its transaction commits', () => {
  it('delivers each payload to every listener, none before the commit, and none after a listener stops', async () => {
    const heard: string[] = [];
    const alsoHeard: string[] = [];
    const stop = await database.listen('connection_rule', (payload) => heard.push(payload));
    const stopOther = await database.listen('connection_rule', (payload) => alsoHeard.push(payload));
    await database.db.transaction().execute(async (trx) => {
      await sql`select pg_notify('connection_rule', 'first')`.execute(trx);
      await sql`select pg_notify('another_channel', 'not for them')`.execute(trx);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual([]);
    });
    await expect.poll(() => heard).toEqual(['first']);
    await stop();
    await sql`select pg_notify('connection_rule', 'second')`.execute(database.db);
    await expect.poll(() => alsoHeard).toEqual(['first', 'second']);
    expect(heard).toEqual(['first']);
    await stopOther();
  });
});

describe.runIf(postgresServerUrl() === null)('PGlite: one input to the engine per statement', () => {
  it("runs a named statement's messages (bind, execute, sync) as one input, and a new one's with its parse", async () => {
    const engine = database.pglite!;
    const run = engine.execProtocolRawStream.bind(engine);
    let inputs = 0;
    engine.execProtocolRawStream = (...args) => {
      inputs += 1;
      return run(...args);
    };
    try {
      for (const n of [1, 2, 3]) {
        const before = inputs;
        const { rows } = await sql<{ n: number }>`/*prepare*/ select ${n}::int as n`.execute(database.db);
        expect(rows).toEqual([{ n }]);
        expect(inputs - before).toBe(1);
      }
      const before = inputs;
      await sql`select ${'unnamed'}::text as text`.execute(database.db);
      expect(inputs - before).toBe(1);
    } finally {
      engine.execProtocolRawStream = run;
    }
  });
});
