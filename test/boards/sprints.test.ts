import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { backlog, board, columnKeys, createTicket, tokensFor, transition, type Tokens } from './support.ts';

// A fixed clock: "now" for start dates and completion (startTestService's `now`).
const NOW = new Date('2026-02-01T10:00:00.000Z');
const NOW_TEXT = '2026-02-01T10:00:00.000000Z';

let service: TestService;
let t: Tokens;
let done: string;
let open: string;
let third: string;

const api = (method: string, path: string, token: string, body?: unknown) =>
  service.request(method, `/api/v1/boards/1${path}`, { token, body });

async function sprintNamed(name: string) {
  const list = await api('GET', '/sprints', t.lee);
  return list.body.sprints.find((s: { name: string }) => s.name === name);
}

async function sprintHistory(key: string) {
  const ticket = await service.db.selectFrom('tickets').select('id').where('key', '=', key).executeTakeFirstOrThrow();
  const rows = await service.db
    .selectFrom('history')
    .select(['changes', 'via'])
    .where('entity_id', '=', ticket.id)
    .where('kind', '=', 'sprint')
    .orderBy('at')
    .execute();
  return rows.map((r) => ({ changes: r.changes, via: r.via }));
}

beforeAll(async () => {
  service = await startTestService({ workspace: 'boards-workspace.yaml', now: () => NOW });
  t = await tokensFor(service);
  done = await createTicket(service, t.lee, 'CORE', 'Finished in sprint 1');
  open = await createTicket(service, t.lee, 'CORE', 'Unfinished in sprint 1');
  third = await createTicket(service, t.lee, 'OPS', 'Planned for sprint 3');
  for (const key of [done, open]) {
    expect((await api('POST', '/backlog/moves', t.lee, { key, sprint: 'Sprint 1' })).status).toBe(200);
  }
  await transition(service, t.lee, done, { transition: 'Close', resolution: 'Fixed' });
});
afterAll(() => service.close());

describe('sprint management: administrator, or project:admin in every project of the board, with a write token', () => {
  it.each([
    ['ada', true],
    ['lee', true],
    ['pat', false],
    ['dan', false],
    ['vic', false],
    ['adaRead', false],
  ] as const)('can_manage for %s is %s', async (who, allowed) => {
    const reply = await api('GET', '/sprints', t[who]);
    expect(reply.status).toBe(200);
    expect(reply.body.can_manage).toBe(allowed);
  });

  it('refuses everyone else with 403 forbidden and creates nothing', async () => {
    const pat = await api('POST', '/sprints', t.pat, { name: 'Not allowed' });
    expect(pat.status).toBe(403);
    expect(pat.body.error.code).toBe('forbidden');
    expect((await api('POST', '/sprints', t.leeRead, { name: 'Not allowed' })).status).toBe(403);
    expect((await api('POST', '/sprints/Sprint%202/start', t.dan, { end_date: '2026-03-01' })).status).toBe(403);
    expect(await sprintNamed('Not allowed')).toBeUndefined();
  });

  it('is 404 on a board the member cannot see', async () => {
    const reply = await service.request('GET', '/api/v1/boards/3/sprints', { token: t.dan });
    expect(reply.status).toBe(404);
  });
});

describe('3.1 (none) → future: POST /boards/{number}/sprints', () => {
  it('creates a future sprint at the end of the board’s sprints, 201', async () => {
    const reply = await api('POST', '/sprints', t.lee, {
      name: 'Sprint 3',
      goal: 'Ops',
      start_date: '2026-02-16',
      end_date: '2026-03-01T09:30:00+01:00',
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toEqual({
      id: expect.any(String),
      name: 'Sprint 3',
      goal: 'Ops',
      state: 'future',
      start_at: '2026-02-16T00:00:00.000000Z',
      end_at: '2026-03-01T08:30:00.000000Z',
      completed_at: null,
    });
    const list = await api('GET', '/sprints', t.vic);
    expect(list.body.sprints.map((s: { name: string; state: string }) => [s.name, s.state])).toEqual([
      ['Sprint 1', 'active'],
      ['Sprint 2', 'future'],
      ['Sprint 3', 'future'],
    ]);
  });

  it('needs a name, and one no other sprint of the board has', async () => {
    const missing = await api('POST', '/sprints', t.lee, { goal: 'x' });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toEqual({ code: 'invalid', message: '/name: is required' });
    const twice = await api('POST', '/sprints', t.lee, { name: ' sprint 3 ' });
    expect(twice.status).toBe(422);
    expect(twice.body.error.message).toMatch(/^\/name: /);
  });

  it('takes dates as YYYY-MM-DD or ISO 8601 and refuses anything else with 422 naming the field', async () => {
    const bad = await api('POST', '/sprints', t.lee, { name: 'Bad dates', start_date: '2026-02-30' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('invalid');
    expect(bad.body.error.message).toMatch(/^\/start_date: /);
    const words = await api('POST', '/sprints', t.lee, { name: 'Bad dates', end_date: 'next friday' });
    expect(words.body.error.message).toMatch(/^\/end_date: /);
    expect(await sprintNamed('Bad dates')).toBeUndefined();
  });

  it('is refused on a kanban board', async () => {
    const reply = await service.request('POST', '/api/v1/boards/2/sprints', { token: t.ada, body: { name: 'Nope' } });
    expect(reply.status).toBe(422);
  });
});

describe('PATCH …/sprints/{sprint}: name, goal and dates; the sprint by name (percent-encoded) or id', () => {
  it('changes only what is sent', async () => {
    const sprint = await sprintNamed('Sprint 3');
    const reply = await api('PATCH', `/sprints/${sprint.id}`, t.lee, { goal: 'Ops work', end_date: '2026-03-02' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({
      name: 'Sprint 3',
      goal: 'Ops work',
      start_at: '2026-02-16T00:00:00.000000Z',
      end_at: '2026-03-02T00:00:00.000000Z',
    });
    const renamed = await api('PATCH', '/sprints/sprint%203', t.lee, { name: 'Sprint Three' });
    expect(renamed.body.name).toBe('Sprint Three');
    expect((await api('PATCH', '/sprints/Sprint%20Three', t.lee, { name: 'Sprint 3' })).status).toBe(200);
  });

  it('answers 422 no_such_sprint for a sprint the board does not have', async () => {
    const reply = await api('PATCH', '/sprints/Sprint%2042', t.lee, { goal: 'x' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('no_such_sprint');
    expect(reply.body.error.message).toContain('"Sprint 1"');
  });
});

describe('3.1 future → start: another sprint active', () => {
  it('stays future: 409 sprint_active', async () => {
    const reply = await api('POST', '/sprints/Sprint%202/start', t.lee, { end_date: '2026-03-01' });
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('sprint_active');
    const noEnd = await api('POST', '/sprints/Sprint%202/start', t.lee, {});
    expect(noEnd.body.error.code).toBe('sprint_active');
    expect((await sprintNamed('Sprint 2')).state).toBe('future');
  });
});

describe('3.1 active or closed → start / future or closed → complete / active or closed → delete: 409 wrong_state', () => {
  it('refuses to start the active sprint', async () => {
    const reply = await api('POST', '/sprints/Sprint%201/start', t.lee, { end_date: '2026-03-01' });
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('wrong_state');
  });

  it('refuses to complete a future sprint', async () => {
    const reply = await api('POST', '/sprints/Sprint%202/complete', t.lee, {});
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('wrong_state');
    expect((await sprintNamed('Sprint 2')).state).toBe('future');
  });

  it('refuses to delete the active sprint', async () => {
    const reply = await api('DELETE', '/sprints/Sprint%201', t.lee);
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('wrong_state');
    expect((await sprintNamed('Sprint 1')).state).toBe('active');
  });
});

describe('3.1 active → complete: closed; done tickets stay, unfinished ones go to move_open_to with history', () => {
  it('refuses a move_open_to that is not an open sprint with 422 no_such_sprint, changing nothing', async () => {
    const reply = await api('POST', '/sprints/Sprint%201/complete', t.lee, { move_open_to: 'Sprint 9' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('no_such_sprint');
    expect((await sprintNamed('Sprint 1')).state).toBe('active');
  });

  it('closes the sprint, sets completed_at and lists the moved tickets', async () => {
    const reply = await api('POST', '/sprints/Sprint%201/complete', t.lee, { move_open_to: 'sprint 2' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ name: 'Sprint 1', state: 'closed', completed_at: NOW_TEXT, moved: [open] });
    const view = await board(service, t.lee, 1, '?sprint=Sprint%201');
    expect(columnKeys(view).Done).toEqual([done]);
    const planned = await backlog(service, t.lee, 1);
    expect(planned.sprints.map((s) => [s.name, s.tickets.map((x) => x.key)])).toEqual([
      ['Sprint 2', [open]],
      ['Sprint 3', []],
    ]);
    expect(await sprintHistory(open)).toEqual([
      { changes: [{ field: 'sprint', from: null, to: 'Sprint 1' }], via: 'test agent' },
      { changes: [{ field: 'sprint', from: 'Sprint 1', to: 'Sprint 2' }], via: 'test agent' },
    ]);
    expect(await sprintHistory(done)).toHaveLength(1);
  });

  it('refuses to start, complete or delete the closed sprint: 409 wrong_state', async () => {
    for (const [method, path] of [
      ['POST', '/sprints/Sprint%201/start'],
      ['POST', '/sprints/Sprint%201/complete'],
      ['DELETE', '/sprints/Sprint%201'],
    ] as const) {
      const reply = await api(method, path, t.lee, method === 'DELETE' ? undefined : { end_date: '2026-04-01' });
      expect(reply.status, path).toBe(409);
      expect(reply.body.error.code).toBe('wrong_state');
    }
  });
});

describe('3.1 future → active: start needs an end date; start_date defaults to now', () => {
  it('refuses a sprint with no end date, given or set, with 422 naming end_date', async () => {
    const reply = await api('POST', '/sprints/Sprint%202/start', t.lee, {});
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toMatch(/^\/end_date: /);
    expect((await sprintNamed('Sprint 2')).state).toBe('future');
  });

  it('starts it, the start date now when left out', async () => {
    const reply = await api('POST', '/sprints/Sprint%202/start', t.lee, { end_date: '2026-02-15' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ state: 'active', start_at: NOW_TEXT, end_at: '2026-02-15T00:00:00.000000Z' });
    expect((await board(service, t.lee, 1)).sprint.name).toBe('Sprint 2');
  });

  it('takes the end date already set (start by id)', async () => {
    expect((await api('POST', '/sprints/Sprint%202/complete', t.ada, {})).body.moved).toEqual([open]);
    const sprint = await sprintNamed('Sprint 3');
    const reply = await api('POST', `/sprints/${sprint.id}/start`, t.ada, { start_date: '2026-02-16T08:00:00Z' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ state: 'active', start_at: '2026-02-16T08:00:00.000000Z', end_at: '2026-03-02T00:00:00.000000Z' });
  });

  it('moved the unfinished tickets of Sprint 2 to the backlog by default', async () => {
    const planned = await backlog(service, t.lee, 1);
    expect(planned.backlog.map((x) => x.key)).toContain(open);
    expect((await sprintHistory(open)).at(-1)).toEqual({ changes: [{ field: 'sprint', from: 'Sprint 2', to: null }], via: 'test agent' });
  });
});

describe('3.1 future → removed: DELETE …/sprints/{sprint}', () => {
  it('deletes a future sprint; its tickets go back to the backlog with history', async () => {
    expect((await api('POST', '/sprints', t.lee, { name: 'Sprint 4' })).status).toBe(201);
    expect((await api('POST', '/backlog/moves', t.lee, { key: third, sprint: 'Sprint 4' })).status).toBe(200);
    const reply = await api('DELETE', '/sprints/Sprint%204', t.lee);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.deleted).toMatchObject({ name: 'Sprint 4', state: 'future' });
    expect(await sprintNamed('Sprint 4')).toBeUndefined();
    const planned = await backlog(service, t.lee, 1);
    expect(planned.backlog.map((x) => x.key)).toContain(third);
    expect((await sprintHistory(third)).at(-1)).toEqual({ changes: [{ field: 'sprint', from: 'Sprint 4', to: null }], via: 'test agent' });
  });

  it('answers 422 no_such_sprint for a sprint that is gone', async () => {
    const reply = await api('DELETE', '/sprints/Sprint%204', t.lee);
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('no_such_sprint');
  });
});

describe('modules: sprints switched off', () => {
  it('answers 403 feature_disabled', async () => {
    await setSwitch(service.db, 'sprints', false);
    try {
      const reply = await api('GET', '/sprints', t.ada);
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('feature_disabled');
    } finally {
      await setSwitch(service.db, 'sprints', true);
    }
  });
});
