import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_PER_ROW, RowQueue, writesQueued } from '../../src/core/row-queue.ts';
import { openDatabase, type Database } from '../../src/storage/database.ts';
import { postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type Reply, type TestService } from '../helpers/service.ts';

/** A change that runs until the test ends it. */
function change(log: string[], name: string) {
  let end!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    end = () => resolve(name);
    fail = reject;
  });
  return {
    work: () => {
      log.push(name);
      return done;
    },
    end,
    fail,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('changes of one row: three at a time, the rest wait in the order they came', () => {
  it('runs three changes of a row and holds the others until one ends', async () => {
    expect(CHANGES_PER_ROW).toBe(3);
    const queue = new RowQueue();
    const started: string[] = [];
    const changes = ['a', 'b', 'c', 'd', 'e'].map((name) => change(started, name));
    const results = changes.map((c) => queue.run('ticket T-1', c.work));
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    changes[1]!.end();
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    changes[0]!.end();
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    for (const c of changes) c.end();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('does not hold a change of another row', async () => {
    const queue = new RowQueue();
    const started: string[] = [];
    const busy = ['a', 'b', 'c', 'd'].map((name) => change(started, name));
    const results = busy.map((c) => queue.run('ticket T-1', c.work));
    const other = change(started, 'other');
    const otherResult = queue.run('ticket T-2', other.work);
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'other']);
    other.end();
    expect(await otherResult).toBe('other');
    for (const c of busy) c.end();
    await Promise.all(results);
  });

  it('passes a failed change\'s place on, and gives its caller the failure', async () => {
    const queue = new RowQueue(1);
    const started: string[] = [];
    const [first, second] = [change(started, 'first'), change(started, 'second')];
    const failed = queue.run('project P', first.work);
    const next = queue.run('project P', second.work);
    await settle();
    expect(started).toEqual(['first']);
    first.fail(new Error('refused'));
    await expect(failed).rejects.toThrow('refused');
    await settle();
    expect(started).toEqual(['first', 'second']);
    second.end();
    expect(await next).toBe('second');
  });

  it('starts afresh once a row has nothing running or waiting', async () => {
    const queue = new RowQueue(1);
    const started: string[] = [];
    const one = change(started, 'one');
    const done = queue.run('ticket T-1', one.work);
    one.end();
    await done;
    const two = change(started, 'two');
    const result = queue.run('ticket T-1', two.work);
    await settle();
    expect(started).toEqual(['one', 'two']);
    two.end();
    await result;
  });
});

describe('a change of one statement: only what may write takes a place in its row\'s queue', () => {
  const statement = (text: string) => CompiledQuery.raw(text);

  it('sends its reads at once while the row\'s places are taken, and queues its write', async () => {
    const queue = new RowQueue(1);
    const started: string[] = [];
    const holder = change(started, 'holder');
    const held = queue.run('ticket T-1', holder.work);
    const gate = writesQueued(queue, 'ticket T-1');
    const read = gate.through(statement('/*prepare*/\n  select t.id from tickets t'), async () => started.push('read'));
    const write = gate.through(statement('/*prepare*/\n  with n as (insert into comments default values returning id) select id from n'), async () => started.push('write'));
    const transaction = gate.through(null, async () => started.push('transaction'));
    await settle();
    expect(started).toEqual(['holder', 'read']);
    holder.end();
    await Promise.all([held, read, write, transaction]);
    expect(started).toEqual(['holder', 'read', 'write', 'transaction']);
  });

  it('takes one place per change, however its statements nest in its transaction', async () => {
    const queue = new RowQueue(1);
    const insert = statement('insert into labels default values');
    const gates = [writesQueued(queue, 'project P'), writesQueued(queue, 'project P')];
    const done = gates.map((gate, i) =>
      gate.through(null, () => gate.through(insert, () => gate.through(null, async () => `change ${i}`))),
    );
    expect(await Promise.all(done)).toEqual(['change 0', 'change 1']);
  });
});

// Only a server database lets a second connection hold a row while the service's statements wait.
const pgUrl = postgresServerUrl();
if (pgUrl !== null) describe('changes of one ticket or one project\'s numbers wait on its row in PostgreSQL three at a time', () => {
  let service: TestService;
  let token: string;
  let second: Database;

  beforeAll(async () => {
    service = await startTestService({ workspace: 'tickets-workspace.yaml' });
    token = await service.token('lee@example.com');
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(service.db);
    const url = new URL(pgUrl!);
    url.pathname = `/${rows[0]!.name}`;
    second = await openDatabase({ engine: 'postgres', url: url.href });
  });
  afterAll(async () => {
    await second.close();
    await service.close();
  });

  /** The service's statements waiting on a lock now, in this file's database. */
  async function waiting(): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'
    `.execute(second.db);
    return rows[0]!.n;
  }

  async function whileHeld(lock: ReturnType<typeof sql>, requests: () => Promise<Reply>[]) {
    let replies!: Promise<Reply[]>;
    const seen = await second.db.transaction().execute(async (trx) => {
      await lock.execute(trx);
      replies = Promise.all(requests());
      for (let i = 0; i < 200 && (await waiting()) < CHANGES_PER_ROW; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      // had the others not been held in the service, they would be waiting by now as well
      await new Promise((resolve) => setTimeout(resolve, 300));
      return waiting();
    });
    return { seen, replies: await replies };
  }

  it('lets three of eight comments on one ticket wait for its row; all eight land once it is free', async () => {
    const before = (await service.request('GET', '/api/v1/tickets/TIX-1', { token })).body.comments.length;
    const { seen, replies } = await whileHeld(sql`select 1 from tickets where key = 'TIX-1' for update`, () =>
      Array.from({ length: 8 }, (_, i) => service.request('POST', '/api/v1/tickets/TIX-1/comments', { token, body: { body: `Queued ${i}` } })),
    );
    expect(seen).toBe(CHANGES_PER_ROW);
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201));
    const after = (await service.request('GET', '/api/v1/tickets/TIX-1', { token })).body.comments;
    expect(after).toHaveLength(before + 8);
  });

  it('lets three of six creates into one project wait for its counter; all six get their own number', async () => {
    const { seen, replies } = await whileHeld(sql`select 1 from projects where key = 'TIX' for update`, () =>
      Array.from({ length: 6 }, (_, i) => service.request('POST', '/api/v1/tickets', { token, body: { project: 'tix', summary: `Queued ${i}` } })),
    );
    expect(seen).toBe(CHANGES_PER_ROW);
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(201));
    const keys = new Set(replies.map((r) => r.body.key));
    expect(keys.size).toBe(6);
  });
});
