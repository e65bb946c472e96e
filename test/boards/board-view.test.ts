import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonalToken, revokeToken } from '../../src/auth/personal-tokens.ts';
import { setSwitch } from '../../src/core/settings.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { backlog, board, columnKeys, createTicket, tokensFor, transition, type Tokens } from './support.ts';

let service: TestService;
let t: Tokens;
const keys: Record<string, string> = {};

beforeAll(async () => {
  service = await startTestService({ workspace: 'boards-workspace.yaml' });
  t = await tokensFor(service);
  keys.todo = await createTicket(service, t.lee, 'CORE', 'Waiting');
  keys.doing = await createTicket(service, t.lee, 'CORE', 'Being done');
  keys.review = await createTicket(service, t.lee, 'CORE', 'Under review');
  keys.parked = await createTicket(service, t.lee, 'CORE', 'Parked away');
  keys.ops = await createTicket(service, t.lee, 'OPS', 'Ops work');
  keys.hidden = await createTicket(service, t.lee, 'HIDE', 'Secret');
  await transition(service, t.lee, keys.doing, { transition: 'Start' });
  await transition(service, t.lee, keys.review, { transition: 'Start' });
  await transition(service, t.lee, keys.review, { transition: 'Submit', fields: { reviewer: 'Lee' } });
  await transition(service, t.lee, keys.parked, { transition: 'Park' });
});
afterAll(() => service.close());

describe('GET /boards: boards drawing from at least one visible project', () => {
  it('lists every board to an administrator, with its projects, owner and page', async () => {
    const reply = await service.request('GET', '/api/v1/boards', { token: t.ada });
    expect(reply.status).toBe(200);
    expect(reply.body.boards.map((b: { number: number }) => b.number)).toEqual([1, 2, 3]);
    const lee = reply.body.boards[0];
    expect(lee).toEqual({
      number: 1,
      name: 'Core scrum',
      kind: 'scrum',
      projects: ['CORE', 'OPS'],
      owner: { id: expect.any(String), name: 'Lee Lead' },
      url: 'http://localhost:8080/boards/1',
    });
  });

  it('lists only the project keys the member can see, and leaves out boards with none', async () => {
    const dan = await service.request('GET', '/api/v1/boards', { token: t.dan });
    expect(dan.body.boards.map((b: { number: number; projects: string[] }) => [b.number, b.projects])).toEqual([
      [1, ['CORE']],
      [2, ['CORE']],
    ]);
    const olga = await service.request('GET', '/api/v1/boards', { token: t.olga });
    expect(olga.body.boards).toEqual([]);
  });

  it('answers 404 for a board the member cannot see and for one that does not exist', async () => {
    expect((await service.request('GET', '/api/v1/boards/3', { token: t.dan })).body.error.code).toBe('not_found');
    expect((await service.request('GET', '/api/v1/boards/99', { token: t.ada })).status).toBe(404);
  });
});

describe('BoardDetail: columns in order with their tickets in rank order', () => {
  it('puts each ticket in the column holding its status and shows limits without enforcing them', async () => {
    const detail = await board(service, t.lee, 2);
    expect(detail.columns.map((c: { index: number; name: string }) => [c.index, c.name])).toEqual([
      [0, 'Open'],
      [1, 'Done'],
    ]);
    expect(columnKeys(detail)).toEqual({ Open: [keys.todo, keys.doing, keys.review], Done: [] });
    const scrum = await board(service, t.lee, 1, '?sprint=none');
    expect(scrum.columns[1]).toMatchObject({ name: 'Doing', statuses: ['In Progress'], min: null, max: 3 });
    expect(scrum.columns[2]).toMatchObject({ name: 'Review', min: 1, max: 2, tickets: [expect.objectContaining({ key: keys.review })] });
    expect(scrum.columns[0].tickets[0]).toEqual({
      key: keys.todo,
      summary: 'Waiting',
      project: 'CORE',
      type: 'Task',
      status: { name: 'To Do', category: 'todo' },
      priority: 'Medium',
      assignee: null,
      labels: [],
      updated_at: expect.any(String),
      url: `http://localhost:8080/browse/${keys.todo}`,
    });
  });

  it('counts tickets in a status no column shows as unmapped', async () => {
    const detail = await board(service, t.lee, 2);
    expect(detail.unmapped).toBe(1);
    expect(detail.hidden_done).toBe(0);
    expect(detail.done_retention_days).toBe(14);
  });

  it('shows only tickets of projects the member can see', async () => {
    const lee = await board(service, t.lee, 1, '?sprint=none');
    expect(columnKeys(lee)['To Do']).toEqual([keys.todo, keys.ops]);
    const dan = await board(service, t.dan, 1, '?sprint=none');
    expect(dan.projects).toEqual(['CORE']);
    expect(columnKeys(dan)['To Do']).toEqual([keys.todo]);
  });
});

describe('BoardDetail: the sprint shown on a scrum board', () => {
  it('shows the active sprint when none is asked for, with its tickets only', async () => {
    const detail = await board(service, t.lee, 1);
    expect(detail.sprint).toMatchObject({
      name: 'Sprint 1',
      state: 'active',
      start_at: '2026-01-05T00:00:00.000000Z',
      end_at: '2026-01-19T00:00:00.000000Z',
    });
    expect(detail.columns.flatMap((c: { tickets: unknown[] }) => c.tickets)).toEqual([]);
  });

  it('takes a sprint by name (any case) or id, or none for every ticket', async () => {
    const move = await service.request('POST', '/api/v1/boards/1/backlog/moves', {
      token: t.lee,
      body: { key: keys.doing, sprint: 'Sprint 2' },
    });
    expect(move.status, move.text).toBe(200);
    const byName = await board(service, t.lee, 1, '?sprint=sprint%202');
    expect(byName.sprint.name).toBe('Sprint 2');
    expect(columnKeys(byName).Doing).toEqual([keys.doing]);
    expect(columnKeys(byName)['To Do']).toEqual([]);
    const byId = await board(service, t.lee, 1, `?sprint=${byName.sprint.id}`);
    expect(byId.sprint.name).toBe('Sprint 2');
    const none = await board(service, t.lee, 1, '?sprint=none');
    expect(none.sprint).toBeNull();
    expect(columnKeys(none)['To Do']).toEqual([keys.todo, keys.ops]);
  });

  it('refuses a sprint the board does not have with 422 no_such_sprint', async () => {
    const reply = await service.request('GET', '/api/v1/boards/1?sprint=Sprint%209', { token: t.lee });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('no_such_sprint');
    expect(reply.body.error.message).toContain('"Sprint 1"');
  });
});

describe('TicketSummary on a card: its labels in name order', () => {
  it("shows each card's own labels, sorted, on the board and in the backlog; none as an empty list", async () => {
    const created = await service.request('POST', '/api/v1/tickets', {
      token: t.lee,
      body: { project: 'CORE', summary: 'Labelled', labels: ['zeta', 'alpha', 'mid'] },
    });
    expect(created.status, created.text).toBe(201);
    const other = await service.request('POST', '/api/v1/tickets', {
      token: t.lee,
      body: { project: 'CORE', summary: 'Labelled too', labels: ['solo'] },
    });
    expect(other.status, other.text).toBe(201);
    const cards = (await board(service, t.lee, 2)).columns.flatMap((c: { tickets: { key: string; labels: string[] }[] }) => c.tickets);
    const labelsOf = (list: { key: string; labels?: string[] }[], key: string) => list.find((card) => card.key === key)?.labels;
    expect(labelsOf(cards, created.body.key)).toEqual(['alpha', 'mid', 'zeta']);
    expect(labelsOf(cards, other.body.key)).toEqual(['solo']);
    expect(labelsOf(cards, keys.todo!)).toEqual([]);
    const listed = (await backlog(service, t.lee, 1)).backlog as { key: string; labels?: string[] }[];
    expect(labelsOf(listed, created.body.key)).toEqual(['alpha', 'mid', 'zeta']);
    expect(labelsOf(listed, keys.todo!)).toEqual([]);
  });
});

describe('modules: boards switched off', () => {
  it('answers 403 feature_disabled', async () => {
    await setSwitch(service.db, 'boards', false);
    try {
      const reply = await service.request('GET', '/api/v1/boards', { token: t.ada });
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('feature_disabled');
    } finally {
      await setSwitch(service.db, 'boards', true);
    }
  });
});

// The board's and the backlog's statements carry the token's check (auth/bearer.ts, DeferredTokenCheck).
describe('BoardDetail and Backlog: a token held by the process is still checked at every read (spec 5.5)', () => {
  const mint = async () => {
    const lee = await service.db.selectFrom('members').select('id').where('email', '=', 'lee@example.com').executeTakeFirstOrThrow();
    return {
      memberId: lee.id,
      ...(await createPersonalToken(service.db, { memberId: lee.id, name: 'board reader', access: 'read', lifetimeDays: null })),
    };
  };

  for (const path of ['/api/v1/boards/1', '/api/v1/boards/1/backlog']) {
    const read = (token: string) => service.request('GET', path, { token });

    it(`GET ${path} answers 401 once the token is revoked`, async () => {
      const { memberId, id, secret } = await mint();
      expect([(await read(secret)).status, (await read(secret)).status]).toEqual([200, 200]);
      expect(await revokeToken(service.db, memberId, id)).toBe(true);
      const refused = await read(secret);
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('invalid_token');
    });

    it(`GET ${path} answers 403 once the module is switched off, and answers again once it is on`, async () => {
      const { secret } = await mint();
      expect([(await read(secret)).status, (await read(secret)).status]).toEqual([200, 200]);
      await setSwitch(service.db, 'boards', false);
      try {
        const refused = await read(secret);
        expect(refused.status).toBe(403);
        expect(refused.body.error.code).toBe('feature_disabled');
      } finally {
        await setSwitch(service.db, 'boards', true);
      }
      expect((await read(secret)).status).toBe(200);
    });
  }
});

// The board's statement reads the active sprint itself (board-view.ts), and reads again without it when there is none.
describe('BoardDetail: the active sprint on a scrum board, shown when none is asked for', () => {
  it('shows the tickets the active sprint holds, and no others', async () => {
    const key = await createTicket(service, t.lee, 'CORE', 'In the running sprint');
    const move = await service.request('POST', '/api/v1/boards/1/backlog/moves', { token: t.lee, body: { key, sprint: 'Sprint 1' } });
    expect(move.status, move.text).toBe(200);
    const detail = await board(service, t.lee, 1);
    expect(detail.sprint).toMatchObject({ name: 'Sprint 1', state: 'active', completed_at: null });
    expect(columnKeys(detail)).toEqual({ 'To Do': [key], Doing: [], Review: [], Done: [] });
  });

  it('shows every ticket of the board, and no sprint, once no sprint is active', async () => {
    const completed = await service.request('POST', '/api/v1/boards/1/sprints/Sprint%201/complete', { token: t.lee, body: {} });
    expect(completed.status, completed.text).toBe(200);
    const detail = await board(service, t.lee, 1);
    expect(detail.sprint).toBeNull();
    expect(columnKeys(detail)['To Do']).toContain(keys.todo);
    expect(columnKeys(detail)).toEqual(columnKeys(await board(service, t.lee, 1, '?sprint=none')));
  });
});
