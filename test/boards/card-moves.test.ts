import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request } from '../mcp/mcp-client.ts';
import { board, columnKeys, createTicket, snapshot, tokensFor, transition, type Tokens } from './support.ts';

let service: TestService;
let t: Tokens;
const k = {} as Record<'a' | 'b' | 'c' | 'd' | 'e' | 'ops' | 'hidden', string>;

const move = (token: string, body: Record<string, unknown>, number = 1) =>
  service.request('POST', `/api/v1/boards/${number}/moves`, { token, body });

const everything = async () => columnKeys(await board(service, t.lee, 1, '?sprint=none'));

async function ranks(keys: string[]) {
  const rows = await service.db.selectFrom('tickets').select(['key', 'rank']).where('key', 'in', keys).execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.rank]));
}

/** A refused move changes nothing: status, rank, sprint, history, comments. */
async function expectRefusedWithoutChange(token: string, body: Record<string, unknown>, status: number, code: string) {
  const before = await snapshot(service, body.key as string);
  const reply = await move(token, body);
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(await snapshot(service, body.key as string)).toEqual(before);
  return reply.body.error.message as string;
}

beforeAll(async () => {
  service = await startTestService({ workspace: 'boards-workspace.yaml' });
  t = await tokensFor(service);
  for (const name of ['a', 'b', 'c', 'd', 'e'] as const) k[name] = await createTicket(service, t.lee, 'CORE', `Card ${name}`);
  k.ops = await createTicket(service, t.lee, 'OPS', 'Ops card');
  k.hidden = await createTicket(service, t.lee, 'HIDE', 'Hidden card');
  await transition(service, t.lee, k.e, { transition: 'Start' });
});
afterAll(() => service.close());

describe('card moves: into another column, the first transition the member may take to its statuses', () => {
  it('takes the transition and answers the Ticket', async () => {
    const reply = await move(t.dan, { key: k.a, column: 'doing' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ key: k.a, status: { name: 'In Progress', category: 'in_progress' } });
    expect((await everything()).Doing).toEqual([k.e, k.a]);
  });

  it('takes a column by its index from 0', async () => {
    const reply = await move(t.dan, { key: k.a, column: 0 });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.status.name).toBe('To Do');
  });

  it('answers 422 no_transition when no transition leads there, changing nothing', async () => {
    const message = await expectRefusedWithoutChange(t.dan, { key: k.b, column: 'Review' }, 422, 'no_transition');
    expect(message).toContain('Review');
  });

  it('answers 422 no_such_column for a column that does not exist, by name or index', async () => {
    const byName = await expectRefusedWithoutChange(t.dan, { key: k.b, column: 'Nowhere' }, 422, 'no_such_column');
    expect(byName).toContain('Doing');
    await expectRefusedWithoutChange(t.dan, { key: k.b, column: 4 }, 422, 'no_such_column');
  });
});

describe('card moves: a transition that asks for something not given is refused whole', () => {
  it('names the transition and the resolution it asks for', async () => {
    const message = await expectRefusedWithoutChange(t.lee, { key: k.b, column: 'Done' }, 422, 'invalid');
    expect(message).toMatch(/^\/resolution: /);
    expect(message).toContain('Close');
  });

  it('names the transition and the field it asks for', async () => {
    await transition(service, t.lee, k.c, { transition: 'Start' });
    const message = await expectRefusedWithoutChange(t.lee, { key: k.c, column: 'Review', comment: 'ready' }, 422, 'invalid');
    expect(message).toContain('Submit');
    expect(message).toContain('reviewer');
  });

  it('passes resolution, fields, comment and assignee to the transition', async () => {
    const before = await snapshot(service, k.c);
    const review = await move(t.lee, {
      key: k.c,
      column: 'Review',
      fields: { reviewer: 'Lee' },
      comment: 'Ready for review',
      comment_internal: false,
    });
    expect(review.status, review.text).toBe(200);
    expect(review.body.fields).toEqual({ reviewer: 'Lee' });
    expect((await snapshot(service, k.c)).comments).toBe(before.comments + 1);
    const closed = await move(t.lee, { key: k.b, column: 'Done', resolution: "Won't Do" });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body).toMatchObject({ status: { name: 'Done' }, resolution: "Won't Do" });
  });

  it('refuses transition details for a card that stays in its column', async () => {
    await expectRefusedWithoutChange(t.lee, { key: k.d, column: 'To Do', resolution: 'Fixed' }, 422, 'invalid');
  });
});

describe('card moves: before/after place the card with one new rank, never renumbering', () => {
  it('places a card before a ticket of the column', async () => {
    expect((await everything())['To Do']).toEqual([k.d, k.ops, k.a]);
    const others = await ranks([k.a, k.ops]);
    const reply = await move(t.lee, { key: k.d, column: 'To Do', before: k.a });
    expect(reply.status, reply.text).toBe(200);
    expect((await everything())['To Do']).toEqual([k.ops, k.d, k.a]);
    expect(await ranks([k.a, k.ops])).toEqual(others);
  });

  it('places a card after a ticket of the column', async () => {
    expect((await move(t.lee, { key: k.d, column: 'To Do', after: k.a })).status).toBe(200);
    expect((await everything())['To Do']).toEqual([k.ops, k.a, k.d]);
    expect((await move(t.lee, { key: k.ops, column: 'To Do', after: k.a })).status).toBe(200);
    expect((await everything())['To Do']).toEqual([k.a, k.ops, k.d]);
  });

  it('records the rank the card had and the one it was given in its history', async () => {
    const before = (await ranks([k.d]))[k.d];
    expect((await move(t.lee, { key: k.d, column: 'To Do', before: k.a })).status).toBe(200);
    const after = (await ranks([k.d]))[k.d];
    expect(after).not.toBe(before);
    const entries = await service.db
      .selectFrom('history')
      .innerJoin('tickets', 'tickets.id', 'history.entity_id')
      .select(['history.changes', 'history.via'])
      .where('tickets.key', '=', k.d)
      .where('history.kind', '=', 'ranked')
      .orderBy('history.at', 'desc')
      .orderBy('history.id', 'desc')
      .limit(1)
      .execute();
    expect(entries[0]?.changes).toEqual([{ field: 'rank', from: before, to: after }]);
    expect(entries[0]?.via).toBeTruthy();
    expect((await move(t.lee, { key: k.d, column: 'To Do', after: k.ops })).status).toBe(200);
    expect((await everything())['To Do']).toEqual([k.a, k.ops, k.d]);
  });

  it('puts the card at the end of the column when neither is given', async () => {
    expect((await move(t.lee, { key: k.a, column: 'To Do' })).status).toBe(200);
    expect((await everything())['To Do']).toEqual([k.ops, k.d, k.a]);
  });

  it('ranks a card moved into another column next to the ticket named', async () => {
    expect((await move(t.lee, { key: k.a, column: 'Doing', before: k.e })).status).toBe(200);
    expect((await everything()).Doing).toEqual([k.a, k.e]);
  });

  it('refuses a before/after ticket that is not in that column, changing nothing', async () => {
    const message = await expectRefusedWithoutChange(t.lee, { key: k.d, column: 'Doing', before: k.ops }, 422, 'invalid');
    expect(message).toMatch(/^\/before: /);
  });

  it('on a scrum board, refuses a neighbour in the same column of another sprint: the card is placed among the cards shown beside it', async () => {
    const inSprint = await createTicket(service, t.lee, 'CORE', 'Sprint card');
    const joined = await service.request('POST', '/api/v1/boards/1/backlog/moves', {
      token: t.lee,
      body: { key: inSprint, sprint: 'Sprint 1' },
    });
    expect(joined.status, joined.text).toBe(200);
    const message = await expectRefusedWithoutChange(t.lee, { key: inSprint, column: 'To Do', before: k.a }, 422, 'invalid');
    expect(message).toBe(`/before: ${k.a} is not in column "To Do" of board 1 in sprint Sprint 1`);
    expect((await move(t.lee, { key: k.b, column: 'To Do', before: inSprint })).body.error.message).toBe(
      `/before: ${inSprint} is not in column "To Do" of board 1 outside its sprints`,
    );
    await expectRefusedWithoutChange(t.lee, { key: k.d, column: 'To Do', after: k.d }, 422, 'invalid');
  });

  it('checks an `after` named beside `before` too, though `before` places the card', async () => {
    const message = await expectRefusedWithoutChange(t.lee, { key: k.d, column: 'To Do', before: k.a, after: k.e }, 422, 'invalid');
    expect(message).toBe(`/after: ${k.e} is not in column "To Do" of board 1 outside its sprints`);
  });

  it('refuses a neighbour outside the column after taking the transition, and the transition is undone', async () => {
    const message = await expectRefusedWithoutChange(
      t.lee,
      { key: k.d, column: 'Doing', after: k.ops, comment: 'Starting' },
      422,
      'invalid',
    );
    expect(message).toBe(`/after: ${k.ops} is not in column "Doing" of board 1 outside its sprints`);
  });
});

describe('card moves: permissions (ticket:transition across columns, ticket:edit within one)', () => {
  it('refuses a reorder to a member without ticket:edit, changing nothing', async () => {
    await expectRefusedWithoutChange(t.dan, { key: k.d, column: 'To Do', before: k.ops }, 403, 'forbidden');
  });

  it('lets a member with ticket:edit reorder but not move across columns', async () => {
    expect((await move(t.rae, { key: k.d, column: 'To Do', before: k.ops })).status).toBe(200);
    await expectRefusedWithoutChange(t.rae, { key: k.d, column: 'Doing' }, 403, 'forbidden');
  });

  it('refuses a viewer and a read-only token with 403', async () => {
    await expectRefusedWithoutChange(t.vic, { key: k.d, column: 'Doing' }, 403, 'forbidden');
    await expectRefusedWithoutChange(t.adaRead, { key: k.d, column: 'Doing' }, 403, 'forbidden');
  });

  it('answers 404 for a ticket the member cannot see', async () => {
    await expectRefusedWithoutChange(t.dan, { key: k.ops, column: 'Doing' }, 404, 'not_found');
  });

  it('refuses a ticket that is not on the board with 422', async () => {
    const message = await expectRefusedWithoutChange(t.ada, { key: k.hidden, column: 'Doing' }, 422, 'invalid');
    expect(message).toMatch(/^\/key: /);
  });
});

describe('card moves: a column with several statuses (kanban)', () => {
  it('takes the first transition into any of them', async () => {
    const reply = await move(t.lee, { key: k.b, column: 'Open' }, 2);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.status.name).toBe('To Do');
  });
});

describe('move_card over MCP', () => {
  it('is the same operation: the board as argument `board`', async () => {
    const ok = await postMcp(service, request('tools/call', { name: 'move_card', arguments: { board: 1, key: k.d, column: 'Doing' } }), {
      token: t.lee,
    });
    expect(ok.body.result.isError).toBe(false);
    expect(ok.body.result.structuredContent).toMatchObject({ key: k.d, status: { name: 'In Progress' } });
    const refused = await postMcp(
      service,
      request('tools/call', { name: 'move_card', arguments: { board: 1, key: k.d, column: 'Nowhere' } }),
      { token: t.lee },
    );
    expect(refused.body.result.isError).toBe(true);
    expect(refused.body.result.content[0].text).toContain('no column "Nowhere"');
  });
});
