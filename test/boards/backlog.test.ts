import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request } from '../mcp/mcp-client.ts';
import { backlog, createTicket, snapshot, tokensFor, transition, type Tokens } from './support.ts';

let service: TestService;
let t: Tokens;
const k = {} as Record<'a' | 'b' | 'c' | 'd' | 'ops' | 'done', string>;

const moveTo = (token: string, body: Record<string, unknown>) => service.request('POST', '/api/v1/boards/1/backlog/moves', { token, body });
const keysOf = (list: { key: string }[]) => list.map((x) => x.key);

async function shape() {
  const view = await backlog(service, t.lee, 1);
  return { sprints: view.sprints.map((s) => [s.name, s.state, keysOf(s.tickets)]), backlog: keysOf(view.backlog) };
}

beforeAll(async () => {
  service = await startTestService({ workspace: 'boards-workspace.yaml' });
  t = await tokensFor(service);
  for (const name of ['a', 'b', 'c', 'd'] as const) k[name] = await createTicket(service, t.lee, 'CORE', `Item ${name}`);
  k.ops = await createTicket(service, t.lee, 'OPS', 'Ops item');
  k.done = await createTicket(service, t.lee, 'CORE', 'Already done');
  await transition(service, t.lee, k.done, { transition: 'Close', resolution: 'Fixed' });
});
afterAll(() => service.close());

describe('backlog: open sprints (active first, then future in order) with their tickets, then open tickets in no open sprint', () => {
  it('lists the backlog in rank order without done tickets', async () => {
    expect(await shape()).toEqual({
      sprints: [
        ['Sprint 1', 'active', []],
        ['Sprint 2', 'future', []],
      ],
      backlog: [k.a, k.b, k.c, k.d, k.ops],
    });
  });

  it("lists a one-project board's backlog as a wider board lists that project's part of it", async () => {
    const wide = await backlog(service, t.lee, 1);
    const narrow = await backlog(service, t.lee, 2);
    expect(keysOf(narrow.backlog)).toEqual(keysOf(wide.backlog).filter((key) => key.startsWith('CORE-')));
    expect(keysOf(narrow.backlog)).toEqual([k.a, k.b, k.c, k.d]);
  });

  it('shows the backlog only with tickets the member can see', async () => {
    const dan = await backlog(service, t.dan, 1);
    expect(keysOf(dan.backlog)).toEqual([k.a, k.b, k.c, k.d]);
    expect((await service.request('GET', '/api/v1/boards/3/backlog', { token: t.dan })).status).toBe(404);
  });
});

describe('backlog moves: into an open sprint or the backlog, placed by before/after', () => {
  it('puts a ticket in a sprint, at its end when no place is given', async () => {
    expect((await moveTo(t.lee, { key: k.b, sprint: 'Sprint 1' })).status).toBe(200);
    expect((await moveTo(t.lee, { key: k.a, sprint: 'sprint 1' })).status).toBe(200);
    expect((await shape()).sprints[0]).toEqual(['Sprint 1', 'active', [k.b, k.a]]);
  });

  it('places it before or after a ticket of that sprint', async () => {
    expect((await moveTo(t.lee, { key: k.c, sprint: 'Sprint 1', before: k.b })).status).toBe(200);
    expect((await shape()).sprints[0]).toEqual(['Sprint 1', 'active', [k.c, k.b, k.a]]);
    expect((await moveTo(t.lee, { key: k.a, sprint: 'Sprint 1', after: k.c })).status).toBe(200);
    expect((await shape()).sprints[0]).toEqual(['Sprint 1', 'active', [k.c, k.a, k.b]]);
  });

  it('keeps a ticket in at most one open sprint: moving it takes it out of the first, with history', async () => {
    const reply = await moveTo(t.lee, { key: k.a, sprint: 'Sprint 2' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.key).toBe(k.a);
    expect((await shape()).sprints).toEqual([
      ['Sprint 1', 'active', [k.c, k.b]],
      ['Sprint 2', 'future', [k.a]],
    ]);
    const ticket = await service.db.selectFrom('tickets').select('id').where('key', '=', k.a).executeTakeFirstOrThrow();
    const history = await service.db
      .selectFrom('history')
      .select('changes')
      .where('entity_id', '=', ticket.id)
      .where('kind', '=', 'sprint')
      .orderBy('at')
      .execute();
    expect(history.map((h) => h.changes)).toEqual([
      [{ field: 'sprint', from: null, to: 'Sprint 1' }],
      [{ field: 'sprint', from: 'Sprint 1', to: 'Sprint 2' }],
    ]);
  });

  it('moves a ticket back to the backlog, placed among its tickets', async () => {
    expect((await moveTo(t.lee, { key: k.b, sprint: 'backlog', before: k.d })).status).toBe(200);
    expect((await shape()).backlog).toEqual([k.b, k.d, k.ops]);
  });

  it('refuses a sprint that is not open with 422 no_such_sprint, changing nothing', async () => {
    expect((await service.request('POST', '/api/v1/boards/1/sprints', { token: t.lee, body: { name: 'Old' } })).status).toBe(201);
    const before = await snapshot(service, k.d);
    const reply = await moveTo(t.lee, { key: k.d, sprint: 'Sprint 7' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('no_such_sprint');
    expect(await snapshot(service, k.d)).toEqual(before);
  });

  it('refuses a before/after ticket outside the target list, changing nothing', async () => {
    const before = await snapshot(service, k.d);
    const reply = await moveTo(t.lee, { key: k.d, sprint: 'Sprint 2', after: k.c });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toMatch(/^\/after: /);
    expect(await snapshot(service, k.d)).toEqual(before);
  });

  it('needs ticket:edit: others get 403 and nothing changes', async () => {
    for (const token of [t.dan, t.vic, t.adaRead]) {
      const before = await snapshot(service, k.d);
      const reply = await moveTo(token, { key: k.d, sprint: 'Sprint 1' });
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('forbidden');
      expect(await snapshot(service, k.d)).toEqual(before);
    }
    expect((await moveTo(t.rae, { key: k.d, sprint: 'Sprint 1' })).status).toBe(200);
  });
});

describe('backlog order after sprints change: the active sprint first even when it is not the first in order', () => {
  it('lists the started later sprint first', async () => {
    const complete = await service.request('POST', '/api/v1/boards/1/sprints/Sprint%201/complete', { token: t.lee, body: {} });
    expect(complete.status, complete.text).toBe(200);
    const start = await service.request('POST', '/api/v1/boards/1/sprints/Old/start', { token: t.lee, body: { end_date: '2026-12-31' } });
    expect(start.status, start.text).toBe(200);
    expect((await shape()).sprints.map(([name, state]) => [name, state])).toEqual([
      ['Old', 'active'],
      ['Sprint 2', 'future'],
    ]);
  });

  it('shows each sprint as the sprint list shows it, dates included', async () => {
    const list = await service.request('GET', '/api/v1/boards/1/sprints', { token: t.lee });
    expect(list.status, list.text).toBe(200);
    const { sprints } = await backlog(service, t.lee, 1);
    const started = sprints.find((s) => s.name === 'Old');
    expect(started?.start_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    for (const { tickets, ...sprint } of sprints) {
      expect(tickets).toBeInstanceOf(Array);
      expect(list.body.sprints.find((s: { id: string }) => s.id === sprint.id)).toEqual(sprint);
    }
  });
});

describe('get_backlog over MCP', () => {
  it('answers what REST answers', async () => {
    const reply = await postMcp(service, request('tools/call', { name: 'get_backlog', arguments: { board: 1 } }), { token: t.lee });
    expect(reply.body.result.isError).toBe(false);
    expect(reply.body.result.structuredContent).toEqual(await backlog(service, t.lee, 1));
  });
});
