import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { lockRanks } from '../../src/modules/boards/rank.ts';
import type { Database } from '../../src/storage/database.ts';
import { openAnotherNode, postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

let service: TestService;
let token: string;

const sprintsPath = '/api/v1/boards/1/sprints';

async function start(app: FastifyInstance, name: string) {
  const response = await app.inject({
    method: 'POST',
    url: `${sprintsPath}/${encodeURIComponent(name)}/start`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ end_date: '2026-12-31' }),
  });
  return { status: response.statusCode, code: (JSON.parse(response.body) as { error?: { code: string } }).error?.code };
}

async function futureSprints(prefix: string, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);
  for (const name of names) {
    const reply = await service.request('POST', sprintsPath, { token, body: { name } });
    expect(reply.status, reply.text).toBe(201);
  }
  return names;
}

async function completeActive(): Promise<void> {
  const active = (await service.request('GET', sprintsPath, { token })).body.sprints.find((s: { state: string }) => s.state === 'active');
  if (active) expect((await service.request('POST', `${sprintsPath}/${active.id}/complete`, { token, body: {} })).status).toBe(200);
}

async function activeCount(): Promise<number> {
  const rows = await service.db.selectFrom('sprints').select('id').where('state', '=', 'active').execute();
  return rows.length;
}

function expectOneWinner(results: { status: number; code?: string }[]): void {
  expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  const losers = results.filter((r) => r.status !== 200);
  expect(losers).toHaveLength(results.length - 1);
  for (const loser of losers) expect(loser).toEqual({ status: 409, code: 'sprint_active' });
}

beforeAll(async () => {
  service = await startTestService({ workspace: 'boards-workspace.yaml' });
  token = await service.token('lee@example.com');
});
afterAll(() => service.close());

describe('one active sprint per board: concurrent starts of different sprints', () => {
  it('lets exactly one of 20 win; the others are 409 sprint_active', async () => {
    await completeActive();
    const names = await futureSprints('Race', 20);
    const results = await Promise.all(names.map((name) => start(service.app, name)));
    expectOneWinner(results);
    expect(await activeCount()).toBe(1);
  });

  it('holds in the database itself: a second active sprint on the board is refused', async () => {
    const board = await service.db.selectFrom('boards').select('id').where('number', '=', 1).executeTakeFirstOrThrow();
    const update = sql`update sprints set state = 'active' where board_id = ${board.id} and state = 'future'`.execute(service.db);
    await expect(update).rejects.toThrow(/sprints_one_active_per_board/);
  });
});

// Two processes need a server database; PGlite is one process by design (ARCHITECTURE §1).
const pgUrl = postgresServerUrl();
if (pgUrl !== null)
  describe('one active sprint per board: two server processes sharing one PostgreSQL', () => {
    let second: Database;
    let other: FastifyInstance;

    beforeAll(async () => {
      second = await openAnotherNode(service.db);
      other = await buildApp({ config: { publicUrl: service.publicUrl, logLevel: 'silent' }, database: second });
      await other.ready();
    });
    afterAll(async () => {
      await other.close();
      await second.close();
    });

    it('lets exactly one of 20 starts, split between the two, win', async () => {
      await completeActive();
      const names = await futureSprints('Split', 20);
      const results = await Promise.all(names.map((name, i) => start(i % 2 === 0 ? service.app : other, name)));
      expectOneWinner(results);
      expect(await activeCount()).toBe(1);
    });
  });

// Holding the rank lock from a second connection lines two moves up behind it in a known order.
if (pgUrl !== null)
  describe('card moves: a move placed beside a ticket uses where that ticket is once the move holds the rank lock', () => {
    let second: Database;
    const keys: string[] = [];

    const open = async () =>
      (await service.request('GET', '/api/v1/boards/2', { token })).body.columns[0].tickets.map((c: { key: string }) => c.key);
    const move = (body: Record<string, unknown>) => service.request('POST', '/api/v1/boards/2/moves', { token, body });
    async function waiters(count: number): Promise<void> {
      for (let i = 0; i < 200; i++) {
        // this file's database only: other files' databases share the server's pg_locks
        const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_locks
        where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())
      `.execute(service.db);
        if (rows[0]!.n >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`fewer than ${count} moves waited for the rank lock`);
    }

    beforeAll(async () => {
      second = await openAnotherNode(service.db);
      for (const name of ['W', 'X', 'Y', 'Z']) {
        const created = await service.request('POST', '/api/v1/tickets', { token, body: { project: 'CORE', summary: `Ranked ${name}` } });
        expect(created.status, created.text).toBe(201);
        keys.push(created.body.key);
      }
    });
    afterAll(() => second.close());

    it("places the card after its neighbour's new place when the neighbour moved while the move waited", async () => {
      const [w, x, y, z] = keys as [string, string, string, string];
      expect((await open()).filter((key: string) => keys.includes(key))).toEqual([w, x, y, z]);
      let xFirst!: Promise<{ status: number }>;
      let zAfterX!: Promise<{ status: number }>;
      await second.db.transaction().execute(async (trx) => {
        await lockRanks(trx);
        xFirst = move({ key: x, column: 'Open', before: w });
        await waiters(1);
        zAfterX = move({ key: z, column: 'Open', after: x });
        await waiters(2);
      });
      expect((await xFirst).status).toBe(200);
      expect((await zAfterX).status).toBe(200);
      expect((await open()).filter((key: string) => keys.includes(key))).toEqual([x, z, w, y]);
    });

    it('refuses the move with 422, changing nothing, when its neighbour left the list while it waited', async () => {
      const [w, x] = keys as [string, string];
      const before = await open();
      let xDone!: Promise<{ status: number }>;
      let wBeforeX!: Promise<{ status: number; body: unknown }>;
      await second.db.transaction().execute(async (trx) => {
        await lockRanks(trx);
        xDone = move({ key: x, column: 'Done', resolution: 'Fixed' });
        await waiters(1);
        wBeforeX = move({ key: w, column: 'Open', before: x });
        await waiters(2);
      });
      expect((await xDone).status).toBe(200);
      const refused = await wBeforeX;
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toContain(`${x} is not in column`);
      expect(await open()).toEqual(before.filter((key: string) => key !== x));
    });

    it("refuses a move into another column when its neighbour left that column while it waited, and undoes the move's transition", async () => {
      const [, x, y] = keys as [string, string, string];
      const status = async (key: string) => (await service.request('GET', `/api/v1/tickets/${key}`, { token })).body.status.name;
      expect(await status(x)).toBe('Done');
      const before = await open();
      expect(before).toContain(y);
      let xReopened!: Promise<{ status: number }>;
      let yBeforeX!: Promise<{ status: number; body: unknown }>;
      await second.db.transaction().execute(async (trx) => {
        await lockRanks(trx);
        xReopened = move({ key: x, column: 'Open' });
        await waiters(1);
        yBeforeX = move({ key: y, column: 'Done', before: x, resolution: 'Fixed' });
        await waiters(2);
      });
      expect((await xReopened).status).toBe(200);
      const refused = await yBeforeX;
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toContain(`${x} is not in column`);
      expect(await status(y)).toBe('To Do');
      expect((await service.request('GET', `/api/v1/tickets/${y}`, { token })).body.resolution).toBeNull();
      expect((await open()).filter((key: string) => key !== x)).toEqual(before);
    });
  });
