import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_JOINED, CHANGES_PER_ROW, RowQueue, writesQueued } from '../../src/core/row-queue.ts';
import { createPersonalToken, revokeToken } from '../../src/auth/personal-tokens.ts';
import type { Database } from '../../src/storage/database.ts';
import { openAnotherNode, postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type Reply, type TestService } from '../helpers/service.ts';
import { chainImbalance, statusChanges } from '../tickets/status-history.ts';

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

  it("passes a failed change's place on, and gives its caller the failure", async () => {
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

describe('changes of one kind waiting for a row are written together, each answered apart', () => {
  /** A write that records the batches it is given and answers each item in capitals; it refuses a batch holding `bad`. */
  function recorder() {
    const batches: string[][] = [];
    const write = async (items: string[]) => {
      batches.push(items);
      if (items.includes('bad')) throw new Error('bad item');
      return items.map((item) => item.toUpperCase());
    };
    return { batches, write };
  }

  it('writes a change at once and alone while its row has a place free', async () => {
    const queue = new RowQueue(1);
    const { batches, write } = recorder();
    expect(await queue.join('ticket T-1', write, 'a', write)).toBe('A');
    expect(batches).toEqual([['a']]);
  });

  it('writes the changes that waited for the row in one call, and answers each its own', async () => {
    const queue = new RowQueue(1);
    const { batches, write } = recorder();
    const holder = change([], 'holder');
    const held = queue.run('ticket T-1', holder.work);
    const answers = ['a', 'b', 'c'].map((item) => queue.join('ticket T-1', write, item, write));
    await settle();
    expect(batches).toEqual([]);
    holder.end();
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C']);
    expect(batches).toEqual([['a', 'b', 'c']]);
    await held;
  });

  it(`joins at most ${CHANGES_JOINED} changes in one write; the next wait for the place after it`, async () => {
    const queue = new RowQueue(1);
    const { batches, write } = recorder();
    const holder = change([], 'holder');
    const held = queue.run('ticket T-1', holder.work);
    const items = Array.from({ length: CHANGES_JOINED + 4 }, (_, i) => `item${i}`);
    const answers = items.map((item) => queue.join('ticket T-1', write, item, write));
    holder.end();
    expect(await Promise.all(answers)).toEqual(items.map((item) => item.toUpperCase()));
    expect(batches).toEqual([items.slice(0, CHANGES_JOINED), items.slice(CHANGES_JOINED)]);
    await held;
  });

  it('writes a failed batch again one change at a time: only the bad change is refused', async () => {
    const queue = new RowQueue(1);
    const { batches, write } = recorder();
    const holder = change([], 'holder');
    const held = queue.run('ticket T-1', holder.work);
    const answers = ['a', 'bad', 'c'].map((item) => queue.join('ticket T-1', write, item, write));
    holder.end();
    const settled = await Promise.allSettled(answers);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual(['A', 'bad item', 'C']);
    expect(batches).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
    await held;
  });

  it('keeps changes of another kind, or of another row, out of the batch', async () => {
    const queue = new RowQueue(1);
    const comments = recorder();
    const worklogs = recorder();
    const holders = [change([], 'T-1'), change([], 'T-2')];
    const held = [queue.run('ticket T-1', holders[0]!.work), queue.run('ticket T-2', holders[1]!.work)];
    const answers = [
      queue.join('ticket T-1', comments.write, 'a', comments.write),
      queue.join('ticket T-1', worklogs.write, 'w', worklogs.write),
      queue.join('ticket T-2', comments.write, 'other', comments.write),
      queue.join('ticket T-1', comments.write, 'b', comments.write),
    ];
    for (const holder of holders) holder.end();
    expect(await Promise.all(answers)).toEqual(['A', 'W', 'OTHER', 'B']);
    expect(comments.batches.sort()).toEqual([['a', 'b'], ['other']]);
    expect(worklogs.batches).toEqual([['w']]);
    await Promise.all(held);
  });

  it("writes with the first waiting change's write: the kind, not the call, decides who joins", async () => {
    const queue = new RowQueue(1);
    const kind = {};
    const calls: string[] = [];
    const writeAs = (caller: string) => async (items: string[]) => {
      calls.push(`${caller}: ${items.join(',')}`);
      return items;
    };
    const holder = change([], 'holder');
    const held = queue.run('ticket T-1', holder.work);
    const answers = ['first', 'second'].map((item) => queue.join('ticket T-1', kind, item, writeAs(item)));
    holder.end();
    expect(await Promise.all(answers)).toEqual(['first', 'second']);
    expect(calls).toEqual(['first: first,second']);
    await held;
  });
});

describe("a change of one statement: only what may write takes a place in its row's queue", () => {
  const statement = (text: string) => CompiledQuery.raw(text);

  it("sends its reads at once while the row's places are taken, and queues its write", async () => {
    const queue = new RowQueue(1);
    const started: string[] = [];
    const holder = change(started, 'holder');
    const held = queue.run('ticket T-1', holder.work);
    const gate = writesQueued(queue, 'ticket T-1');
    const read = gate.through(statement('/*prepare*/\n  select t.id from tickets t'), async () => started.push('read'));
    const write = gate.through(
      statement('/*prepare*/\n  with n as (insert into comments default values returning id) select id from n'),
      async () => started.push('write'),
    );
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
if (pgUrl !== null)
  describe("changes of one ticket or one project's numbers wait on its row in PostgreSQL three at a time", () => {
    let service: TestService;
    let token: string;
    let second: Database;

    beforeAll(async () => {
      service = await startTestService({ workspace: 'tickets-workspace.yaml' });
      token = await service.token('lee@example.com');
      second = await openAnotherNode(service.db);
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

    /** Holds `lock` while `requests` run, until `until` of them wait for it (a row's places) and `settle` ms more. */
    async function whileHeld(lock: ReturnType<typeof sql>, requests: () => Promise<Reply>[], settle = 300, until = CHANGES_PER_ROW) {
      let replies!: Promise<Reply[]>;
      const seen = await second.db.transaction().execute(async (trx) => {
        await lock.execute(trx);
        replies = Promise.all(requests());
        for (let i = 0; i < 200 && (await waiting()) < until; i++) await new Promise((resolve) => setTimeout(resolve, 25));
        // had the others not been held in the service, they would be waiting by now as well
        await new Promise((resolve) => setTimeout(resolve, settle));
        return waiting();
      });
      return { seen, replies: await replies };
    }

    it('lets three of eight comments on one ticket wait for its row; all eight land once it is free', async () => {
      const before = (await service.request('GET', '/api/v1/tickets/TIX-1', { token })).body.comments.length;
      const { seen, replies } = await whileHeld(sql`select 1 from tickets where key = 'TIX-1' for update`, () =>
        Array.from({ length: 8 }, (_, i) =>
          service.request('POST', '/api/v1/tickets/TIX-1/comments', { token, body: { body: `Queued ${i}` } }),
        ),
      );
      expect(seen).toBe(CHANGES_PER_ROW);
      expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201));
      const after = (await service.request('GET', '/api/v1/tickets/TIX-1', { token })).body.comments;
      expect(after).toHaveLength(before + 8);
    });

    it('writes the comments that waited in the service in one statement: one time, each its own author, answer, history and notifications', async () => {
      const people = [
        { email: 'lee@example.com', name: 'Lee Lead', username: 'lee' },
        { email: 'dev1@example.com', name: 'Dev One', username: 'dev1' },
        { email: 'dev2@example.com', name: 'Dev Two', username: 'dev2' },
      ];
      const tokens = await Promise.all(people.map((p) => service.token(p.email)));
      // every third an internal note, every other one mentioning Ada
      const sent = Array.from({ length: 8 }, (_, i) => ({
        who: i % 3,
        body: `Together${i} ${i % 2 ? '@ada' : 'alone'}`,
        internal: i % 3 === 2,
      }));
      // a second for every comment to reach the service's queue, however loaded the machine
      const { replies } = await whileHeld(
        sql`select 1 from tickets where key = 'TIX-4' for update`,
        () =>
          sent.map((c) =>
            service.request('POST', '/api/v1/tickets/TIX-4/comments', {
              token: tokens[c.who]!,
              body: { body: c.body, internal: c.internal },
            }),
          ),
        1000,
      );
      expect(replies.map((r) => r.status)).toEqual(sent.map(() => 201));
      replies.forEach((reply, i) => {
        expect(reply.body).toMatchObject({
          author: { name: people[sent[i]!.who]!.name },
          body: { text: sent[i]!.body },
          visibility: sent[i]!.internal ? 'internal' : 'public',
        });
      });
      // the three that held the row's places each wrote alone; the five the service held back, together,
      // as many at once as a joined write takes, sharing their statement's time
      const times = new Map<string, number>();
      for (const reply of replies) times.set(reply.body.created_at, (times.get(reply.body.created_at) ?? 0) + 1);
      const heldBack = 8 - CHANGES_PER_ROW;
      const together = [CHANGES_JOINED, heldBack - CHANGES_JOINED];
      expect([...times.values()].sort((a, b) => a - b)).toEqual([...Array(CHANGES_PER_ROW).fill(1), ...together].sort((a, b) => a - b));

      const ids = replies.map((r) => r.body.id as string);
      const entries = await sql<{ comment: string; actor: string }>`
      select h.changes->0->'to'->>'id' as comment, m.username as actor from history h join members m on m.id = h.actor_id
      where h.kind = 'commented' and h.changes->0->'to'->>'id' = any(${ids}::text[])`.execute(second.db);
      expect(entries.rows.map((e) => [ids.indexOf(e.comment), e.actor]).sort()).toEqual(
        sent.map((c, i) => [i, people[c.who]!.username]).sort(),
      );
      const told = await sql<{ comment: string; kind: string; username: string }>`
      select n.payload->>'comment_id' as comment, n.kind, m.username from notifications n join members m on m.id = n.member_id
      where n.payload->>'comment_id' = any(${ids}::text[])`.execute(second.db);
      const mentioned = told.rows
        .filter((n) => n.kind === 'mentioned')
        .map((n) => ids.indexOf(n.comment))
        .sort((a, b) => a - b);
      expect(mentioned).toEqual([1, 3, 5, 7]);
      expect(told.rows.filter((n) => n.kind === 'mentioned').every((n) => n.username === 'ada')).toBe(true);

      // the same words as a rebuild (the three written alone may take the row in another order than their times)
      const rows = await sql<{ same: boolean; kept: boolean }>`
      select strip(search_vector) = strip(ticket_text_document(id) || ticket_comments_document(id)) as same,
             strip(comments_vector) = strip(ticket_comments_document(id)) as kept
      from tickets where key = 'TIX-4'`.execute(second.db);
      expect(rows.rows).toEqual([{ same: true, kept: true }]);
    });

    it("adds the words of comments written together in their ids' order, where a rebuild reads them", async () => {
      const created = await service.request('POST', '/api/v1/tickets', {
        token,
        body: { project: 'TIX', summary: 'Worked on and talked about' },
      });
      const key = created.body.key as string;
      // three worklogs take the ticket's places (each holds its row for its whole transaction), so
      // the four comments after them wait together and are written in one statement, alone
      const { replies } = await whileHeld(
        sql`select 1 from tickets where key = ${key} for update`,
        () => {
          const worklogs = Array.from({ length: CHANGES_PER_ROW }, () =>
            service.request('POST', `/api/v1/tickets/${key}/worklogs`, { token, body: { time_spent: '1h' } }),
          );
          const placesTaken = (async () => {
            for (let i = 0; i < 200 && (await waiting()) < CHANGES_PER_ROW; i++) await new Promise((resolve) => setTimeout(resolve, 25));
          })();
          const comments = Array.from({ length: CHANGES_JOINED }, (_, i) =>
            placesTaken.then(() =>
              service.request('POST', `/api/v1/tickets/${key}/comments`, { token, body: { body: `ordered${i} words of comment ${i}` } }),
            ),
          );
          return [...worklogs, ...comments];
        },
        1000,
      );
      expect(replies.map((r) => r.status)).toEqual([...Array(CHANGES_PER_ROW).fill(201), ...Array(CHANGES_JOINED).fill(201)]);
      expect(new Set(replies.slice(CHANGES_PER_ROW).map((r) => r.body.created_at)).size).toBe(1);
      const rows = await sql<{ same: boolean; kept: boolean }>`
      select search_vector = ticket_text_document(id) || ticket_comments_document(id) as same,
             comments_vector = ticket_comments_document(id) as kept
      from tickets where key = ${key}`.execute(second.db);
      expect(rows.rows).toEqual([{ same: true, kept: true }]);
    });

    it('refuses the comment of a token revoked while it waited to join others, and writes the others', async () => {
      const lee = await service.db.selectFrom('members').select('id').where('username', '=', 'lee').executeTakeFirstOrThrow();
      const revoked = await createPersonalToken(service.db, {
        memberId: lee.id,
        name: 'soon revoked',
        access: 'write',
        lifetimeDays: null,
      });
      // its principal held by the process, so its next request's check rides on its first read
      expect((await service.request('GET', '/api/v1/me', { token: revoked.secret })).status).toBe(200);
      const { replies } = await whileHeld(sql`select 1 from tickets where key = 'TIX-3' for update`, () => {
        const first = Array.from({ length: CHANGES_PER_ROW + 1 }, (_, i) =>
          service.request('POST', '/api/v1/tickets/TIX-3/comments', { token, body: { body: `Waiting ${i}` } }),
        );
        const late = revokeToken(service.db, lee.id, revoked.id).then(() =>
          service.request('POST', '/api/v1/tickets/TIX-3/comments', { token: revoked.secret, body: { body: 'From a revoked token' } }),
        );
        return [...first, late];
      });
      expect(replies.map((r) => r.status)).toEqual([...Array(CHANGES_PER_ROW + 1).fill(201), 401]);
      const bodies = (await service.request('GET', '/api/v1/tickets/TIX-3', { token })).body.comments.map(
        (c: { body: { text: string } }) => c.body.text,
      );
      expect(bodies).toEqual(expect.arrayContaining(Array.from({ length: CHANGES_PER_ROW + 1 }, (_, i) => `Waiting ${i}`)));
      expect(bodies).not.toContain('From a revoked token');
    });

    it('decides a transition again on the ticket as the one written before it left it, when both were decided on the same read', async () => {
      const key = (await service.request('POST', '/api/v1/tickets', { token, body: { project: 'TIX', summary: 'Two moves at once' } })).body
        .key as string;
      // both read the ticket in To Do; both writes wait for its row
      const { seen, replies } = await whileHeld(
        sql`select 1 from tickets where key = ${key} for update`,
        () => [
          service.request('POST', `/api/v1/tickets/${key}/transitions`, { token, body: { transition: 'Start' } }),
          service.request('POST', `/api/v1/tickets/${key}/transitions`, { token, body: { transition: 'Finish', resolution: 'Fixed' } }),
        ],
        300,
        2,
      );
      expect(seen).toBe(2);
      const [start, finish] = replies;
      expect(finish!.status, finish!.text).toBe(200);
      const changes = await statusChanges(service.db, key);
      // Start first: Finish is taken from In Progress; Finish first: Start is no longer available
      if (start!.status === 200) {
        expect(changes).toEqual(
          expect.arrayContaining([
            { from: 'To Do', to: 'In Progress' },
            { from: 'In Progress', to: 'Done' },
          ]),
        );
      } else {
        expect(start!.body.error.code).toBe('transition_not_available');
      }
      expect(changes).toHaveLength(start!.status === 200 ? 2 : 1);
      expect(chainImbalance(changes, 'To Do', 'Done')).toEqual({});
      const ticket = (await service.request('GET', `/api/v1/tickets/${key}`, { token })).body;
      expect(ticket).toMatchObject({ status: { name: 'Done' }, resolution: 'Fixed' });
    });

    it('reads a ticket that waited for its lock as the change before left it, its new status included', async () => {
      const key = (await service.request('POST', '/api/v1/tickets', { token, body: { project: 'TIX', summary: 'Two locked moves' } })).body
        .key as string;
      // a comment makes each a transaction that locks the ticket as it reads it: both reads wait
      const { seen, replies } = await whileHeld(
        sql`select 1 from tickets where key = ${key} for update`,
        () => [
          service.request('POST', `/api/v1/tickets/${key}/transitions`, { token, body: { transition: 'Start', comment: 'Starting' } }),
          service.request('POST', `/api/v1/tickets/${key}/transitions`, {
            token,
            body: { transition: 'Finish', resolution: 'Fixed', comment: 'Finishing' },
          }),
        ],
        300,
        2,
      );
      expect(seen).toBe(2);
      const [start, finish] = replies;
      expect(finish!.status, finish!.text).toBe(200);
      if (start!.status !== 200) expect(start!.body.error.code, start!.text).toBe('transition_not_available');
      const changes = await statusChanges(service.db, key);
      expect(changes).toHaveLength(start!.status === 200 ? 2 : 1);
      expect(chainImbalance(changes, 'To Do', 'Done')).toEqual({});
    });

    it('decides a worklog again on the totals the one written before it left, when both were decided on the same read', async () => {
      const before = (await service.request('GET', '/api/v1/tickets/TIX-1', { token })).body;
      // both read the ticket's totals as they are; both writes wait for its row
      const { seen, replies } = await whileHeld(
        sql`select 1 from tickets where key = 'TIX-1' for update`,
        () => [
          service.request('POST', '/api/v1/tickets/TIX-1/worklogs', { token, body: { time_spent: '1h' } }),
          service.request('POST', '/api/v1/tickets/TIX-1/worklogs', { token, body: { time_spent: '2h' } }),
        ],
        300,
        2,
      );
      expect(seen).toBe(2);
      for (const reply of replies) expect(reply.status, reply.text).toBe(201);
      const spentBefore: number = before.time_spent_seconds ?? 0;
      const after = (await service.request('GET', '/api/v1/tickets/TIX-1', { token })).body;
      expect(after.time_spent_seconds).toBe(spentBefore + 3 * 3600);
      expect(after.remaining_estimate_seconds).toBe(Math.max(before.remaining_estimate_seconds - 3 * 3600, 0));
      // each answer and each history entry takes the totals on from where the other left them
      const answered = replies.map((reply) => reply.body.ticket.time_spent_seconds as number).sort((a, b) => a - b);
      expect(answered[1]).toBe(spentBefore + 3 * 3600);
      const { rows } = await sql<{ changes: { field: string; from: number | null; to: number | null }[] }>`
      select h.changes from history h join tickets t on t.id = h.entity_id
      where t.key = 'TIX-1' and h.kind = 'worklog' order by h.at desc limit 2
    `.execute(service.db);
      const spent = rows
        .map((row) => row.changes.find((change) => change.field === 'time_spent_seconds')!)
        .sort((a, b) => (a.to ?? 0) - (b.to ?? 0));
      expect(spent.map((change) => [change.from, change.to])).toEqual([
        [before.time_spent_seconds, answered[0]],
        [answered[0], spentBefore + 3 * 3600],
      ]);
    });

    it('lets three of six creates into one project wait for its counter; all six get their own number', async () => {
      const { seen, replies } = await whileHeld(sql`select 1 from projects where key = 'TIX' for update`, () =>
        Array.from({ length: 6 }, (_, i) =>
          service.request('POST', '/api/v1/tickets', { token, body: { project: 'tix', summary: `Queued ${i}` } }),
        ),
      );
      expect(seen).toBe(CHANGES_PER_ROW);
      expect(replies.map((r) => r.status)).toEqual(Array(6).fill(201));
      const keys = new Set(replies.map((r) => r.body.key));
      expect(keys.size).toBe(6);
    });
  });
