import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/storage/database.ts';
import { DescribedQuery } from '../../src/storage/described-query.ts';
import { pgTypes } from '../../src/storage/pg-types.ts';
import { pgliteClientConfig } from '../../src/storage/pglite-connection.ts';
import { openTestDatabase, postgresServerUrl } from '../helpers/database.ts';

// ADR 0036: a named statement is described once per connection; its later runs take the result's
// setup from that first run instead of asking PostgreSQL for a RowDescription again. What each run
// answers must not change. Runs on both engines: PGlite is reached through the same pg client. Its
// clients share its one session, and so its prepared statements: each test names its own.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await sql`create table described (id int primary key, name text, seen timestamptz, tags text[], data jsonb, big bigint)`.execute(
    database.db,
  );
  await sql`insert into described values
    (1, 'one', '2026-01-02 03:04:05.123456+00', '{a,b}', '{"x": [1, 2]}', 9007199254740991),
    (2, null, null, '{}', 'null', null)`.execute(database.db);
});
afterAll(() => database.close());

interface Client {
  client: pg.Client;
  /** How many RowDescription messages the connection has read. */
  descriptions(): number;
  run(name: string, text: string, values?: unknown[]): Promise<pg.QueryResult>;
}

/** A client of its own on the test database, as the service's pools make them (same type parsers). */
async function connect(): Promise<Client> {
  let config: pg.ClientConfig;
  if (database.pglite) {
    config = { ...pgliteClientConfig(database.pglite, () => {}), types: pgTypes };
  } else {
    const name = (await sql<{ name: string }>`select current_database() as name`.execute(database.db)).rows[0]!.name;
    const url = new URL(postgresServerUrl()!);
    url.pathname = `/${name}`;
    config = { connectionString: url.href, types: pgTypes };
  }
  const client = new pg.Client(config);
  await client.connect();
  let descriptions = 0;
  (client as unknown as { connection: NodeJS.EventEmitter }).connection.on('rowDescription', () => (descriptions += 1));
  return {
    client,
    descriptions: () => descriptions,
    run: (name, text, values) =>
      new Promise((resolve, reject) => {
        client.query(
          new DescribedQuery(name, text, values, (error, result) => (error ? reject(error) : resolve(result as pg.QueryResult))),
        );
      }),
  };
}

const SELECT = 'select id, name, seen, tags, data, big, $1::int + 1 as next from described where id <= $2 order by id';

describe('a named statement is described once per connection', () => {
  it('asks for a RowDescription on its first run only, and answers every run alike', async () => {
    const one = await connect();
    try {
      const first = await one.run('select_alike', SELECT, [1, 2]);
      expect(one.descriptions()).toBe(1);
      const again = await one.run('select_alike', SELECT, [1, 2]);
      const third = await one.run('select_alike', SELECT, [5, 1]);
      expect(one.descriptions()).toBe(1);
      expect(first.rows).toEqual([
        {
          id: 1,
          name: 'one',
          seen: '2026-01-02 03:04:05.123456+00',
          tags: ['a', 'b'],
          data: { x: [1, 2] },
          big: 9007199254740991,
          next: 2,
        },
        { id: 2, name: null, seen: null, tags: [], data: null, big: null, next: 2 },
      ]);
      expect(again.rows).toEqual(first.rows);
      expect(third.rows).toEqual([{ ...first.rows[0], next: 6 }]);
      expect(third.rowCount).toBe(1);
      expect(third.command).toBe('SELECT');
    } finally {
      await one.client.end();
    }
  });

  it('answers a statement that returns no rows alike, with its row count', async () => {
    const one = await connect();
    try {
      const update = 'update described set name = $1 where id = $2';
      const first = await one.run('update_described', update, ['first', 2]);
      const again = await one.run('update_described', update, ['again', 2]);
      const none = await one.run('update_described', update, ['nobody', 99]);
      expect([first.rowCount, again.rowCount, none.rowCount]).toEqual([1, 1, 0]);
      expect(again.command).toBe('UPDATE');
      expect(again.rows).toEqual([]);
      const { rows } = await one.run('select_after_update', SELECT, [0, 2]);
      expect(rows[1]!.name).toBe('again');
    } finally {
      await one.client.end();
    }
  });

  // PGlite has one session: a second client cannot prepare the statement again under its name
  it.runIf(postgresServerUrl() !== null)('describes it again on another connection, which has not seen it', async () => {
    const one = await connect();
    const other = await connect();
    try {
      await one.run('select_twice', SELECT, [1, 2]);
      await one.run('select_twice', SELECT, [1, 2]);
      const read = await other.run('select_twice', SELECT, [1, 1]);
      expect([one.descriptions(), other.descriptions()]).toEqual([1, 1]);
      expect(read.rows).toEqual([expect.objectContaining({ id: 1, name: 'one', next: 2 })]);
    } finally {
      await one.client.end();
      await other.client.end();
    }
  });
});

describe('a described statement that fails runs again after', () => {
  it("refuses a value it cannot bind, with PostgreSQL's error, and answers the next run", async () => {
    const one = await connect();
    try {
      await one.run('select_refused', SELECT, [1, 2]);
      await expect(one.run('select_refused', SELECT, ['not a number', 2])).rejects.toMatchObject({ code: '22P02' });
      await expect(one.run('select_refused', SELECT, [1, 2 ** 40])).rejects.toMatchObject({ code: '22003' });
      const after = await one.run('select_refused', SELECT, [2, 1]);
      expect(after.rows).toEqual([expect.objectContaining({ id: 1, tags: ['a', 'b'], next: 3 })]);
      expect(one.descriptions()).toBe(1);
    } finally {
      await one.client.end();
    }
  });
});
