import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriesCheck, tokenCheckColumn, type TokenCheckValues } from '../../src/core/token-check.ts';
import type { Database } from '../../src/storage/database.ts';
import { gatedKysely, type StatementGate } from '../../src/storage/gated-kysely.ts';
import { openTestDatabase } from '../helpers/database.ts';

/** A gate the test opens or shuts by hand, noting what it was asked to let through. */
class HandGate implements StatementGate {
  readonly asked: (string | null)[] = [];
  #decide!: (open: boolean) => void;
  readonly #decided = new Promise<boolean>((resolve) => (this.#decide = resolve));

  through<T>(query: CompiledQuery | null, send: () => Promise<T>): Promise<T> {
    this.asked.push(query?.sql ?? null);
    return this.#decided.then((open) => {
      if (!open) throw new Error('shut');
      return send();
    });
  }

  open() {
    this.#decide(true);
  }

  shut() {
    this.#decide(false);
  }
}

let database: Database;
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const rows = async () => (await sql<{ n: number }>`select n from gate_probe order by n`.execute(database.db)).rows.map((r) => r.n);

beforeAll(async () => {
  database = await openTestDatabase();
  await sql`create table gate_probe (n int not null)`.execute(database.db);
});
afterAll(async () => database?.close());

describe('a gated database handle sends nothing its gate holds back (a change waiting for its token check)', () => {
  it('holds a write until the gate opens, then sends it', async () => {
    const gate = new HandGate();
    const sent = database.queries.count;
    const insert = gatedKysely(database.db, gate)
      .insertInto('gate_probe' as never)
      .values({ n: 1 } as never)
      .execute();
    await settle();
    expect(database.queries.count).toBe(sent);
    expect(await rows()).toEqual([]);
    gate.open();
    await insert;
    expect(await rows()).toEqual([1]);
    await sql`delete from gate_probe`.execute(database.db);
  });

  it('never sends a write the gate shuts on', async () => {
    const gate = new HandGate();
    const sent = database.queries.count;
    const insert = sql`insert into gate_probe (n) values (2)`.execute(gatedKysely(database.db, gate));
    gate.shut();
    await expect(insert).rejects.toThrow('shut');
    expect(database.queries.count).toBe(sent);
    expect(await rows()).toEqual([]);
  });

  it('holds a transaction before it takes a connection: not even its begin is sent', async () => {
    const gate = new HandGate();
    const sent = database.queries.count;
    const done = gatedKysely(database.db, gate)
      .transaction()
      .execute((trx) => sql`insert into gate_probe (n) values (3)`.execute(trx));
    await settle();
    expect(gate.asked).toEqual([null]);
    gate.shut();
    await expect(done).rejects.toThrow('shut');
    expect(database.queries.count).toBe(sent);
    expect(await rows()).toEqual([]);
  });

  it('passes the statements of a transaction it opened through the gate too', async () => {
    const gate = new HandGate();
    gate.open();
    await gatedKysely(database.db, gate)
      .transaction()
      .execute(async (trx) => {
        await sql`insert into gate_probe (n) values (4)`.execute(trx);
        await sql`insert into gate_probe (n) values (5)`.execute(
          trx.withPlugin({ transformQuery: ({ node }) => node, transformResult: async ({ result }) => result }),
        );
      });
    // first the connection, then each statement (Kysely may ask for its connection again on the way)
    expect(gate.asked[0]).toBeNull();
    expect(gate.asked.filter((query) => query !== null)).toEqual([
      'insert into gate_probe (n) values (4)',
      'insert into gate_probe (n) values (5)',
    ]);
    expect(await rows()).toEqual([4, 5]);
    await sql`delete from gate_probe`.execute(database.db);
  });

  it('refuses to stream, which no gate could hold', async () => {
    const gate = new HandGate();
    gate.open();
    const rows = gatedKysely(database.db, gate)
      .selectFrom('gate_probe' as never)
      .selectAll()
      .stream();
    await expect(rows.next()).rejects.toThrow('does not stream');
  });

  it('refuses to gate a handle that was not opened for it', async () => {
    const bare = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
    expect(() => gatedKysely(bare, new HandGate())).toThrow(/not opened for gating/);
    await bare.destroy();
  });
});

describe("a change's one statement before its token's verdict: a plain SELECT carrying the check", () => {
  const values: TokenCheckValues = ['the-token-hash', null];
  const compiled = (query: ReturnType<typeof sql>) => query.compile(database.db);

  it('is a read whose statement binds the check', () => {
    expect(
      carriesCheck(
        compiled(sql`/*prepare*/\n select ${tokenCheckColumn(values, 'prepared')} as token_check, t.key from tickets t`),
        values,
      ),
    ).toBe(true);
    expect(carriesCheck(compiled(sql`SELECT ${tokenCheckColumn(values, 'planned every time')} as token_check`), values)).toBe(true);
  });

  it('is not a read without the check', () => {
    expect(carriesCheck(compiled(sql`select t.key from tickets t where t.key = ${'the-token'}`), values)).toBe(false);
  });

  it('is not a statement that writes, whatever it binds', () => {
    expect(
      carriesCheck(
        compiled(sql`with x as (delete from gate_probe returning n) select ${tokenCheckColumn(values, 'prepared')} from x`),
        values,
      ),
    ).toBe(false);
    expect(
      carriesCheck(compiled(sql`insert into gate_probe (n) select 1 where ${tokenCheckColumn(values, 'prepared')} is not null`), values),
    ).toBe(false);
    expect(carriesCheck(compiled(sql`update gate_probe set n = 1 where ${values[0]} is not null`), values)).toBe(false);
  });
});
