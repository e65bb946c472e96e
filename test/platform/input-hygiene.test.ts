import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import { createTicket, tokensFor, type Tokens } from '../boards/support.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request as rpc } from '../mcp/mcp-client.ts';

// ADR 0013: input the database cannot hold is refused at the door with the spec's
// envelope (422 naming the field, 404 for a path naming nothing), never answered with a 500.

let service: TestService;
let t: Tokens;
let key: string;

beforeAll(async () => {
  service = await startTestService({ workspace: 'boards-workspace.yaml', listen: true });
  t = await tokensFor(service);
  key = await createTicket(service, t.lee, 'CORE', 'Hygiene target');
});
afterAll(() => service.close());

const api = (method: string, path: string, body?: unknown, token = t.lee) => service.request(method, `/api/v1${path}`, { token, body });
const tool = async (name: string, args: Record<string, unknown>, token = t.lee) =>
  (await postMcp(service, rpc('tools/call', { name, arguments: args }), { token })).body.result;

async function expect422(reply: { status: number; body: any; text: string }, pointer: string) {
  expect(reply.status, reply.text).toBe(422);
  expect(reply.body.error.code).toBe('invalid');
  expect(reply.body.error.message.startsWith(`${pointer}: `), reply.body.error.message).toBe(true);
}

describe('input: text with the NUL character (U+0000) is refused with 422 naming the field, everywhere', () => {
  it('in bodies: a comment, an assignee, a card move’s key and column, a backlog move', async () => {
    await expect422(await api('POST', `/tickets/${key}/comments`, { body: 'a\u0000b' }), '/body');
    await expect422(await api('PUT', `/tickets/${key}/assignee`, { assignee: 'Lee\u0000' }), '/assignee');
    await expect422(await api('POST', '/boards/1/moves', { key: `${key}\u0000`, column: 'Doing' }), '/key');
    await expect422(await api('POST', '/boards/1/moves', { key, column: 'Do\u0000ing' }), '/column');
    await expect422(await api('POST', '/boards/1/backlog/moves', { key, sprint: 'Sprint\u00001' }), '/sprint');
  });

  it('in a path and in a query string', async () => {
    await expect422(await api('GET', `/tickets/${key}%00`), '/key');
    await expect422(await api('GET', '/tickets?assignee=%00'), '/assignee');
  });

  it('in a key of an object (custom fields)', async () => {
    await expect422(await api('PATCH', `/tickets/${key}`, { fields: { 'story\u0000points': 1 } }), '/fields/story\\u0000points');
  });

  it('over MCP: the same sentence as a tool error, not "Something went wrong"', async () => {
    const read = await tool('get_ticket', { key: `${key}\u0000` });
    expect(read.isError).toBe(true);
    expect(read.content[0].text).toBe('/key: must not contain the NUL character (U+0000)');
    const assign = await tool('assign_ticket', { key, assignee: '\u0000' });
    expect(assign.content[0].text).toBe('/assignee: must not contain the NUL character (U+0000)');
  });

  it('changes nothing', async () => {
    const ticket = await api('GET', `/tickets/${key}`);
    expect(ticket.body.comments).toEqual([]);
    expect(ticket.body.assignee).toBeNull();
  });
});

describe('input: a lone UTF-16 surrogate is refused with 422 naming the field', () => {
  it('in a comment body, as the JSON escape a client sends', async () => {
    const reply = await service.request('POST', `/api/v1/tickets/${key}/comments`, {
      token: t.lee,
      body: '{"body": "x\\ud800y"}',
    });
    await expect422(reply, '/body');
    expect(reply.body.error.message).toContain('lone UTF-16 surrogate');
  });
});

/** `{"z": [[[…]]]}` with `levels` arrays, as a client would send it (no recursion to build it). */
const nested = (levels: number, inner = '"x"') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

describe('input: arrays and objects nested deeper than 32 levels are refused with 422 before any recursion', () => {
  let deepKey: string;
  beforeAll(async () => {
    deepKey = await createTicket(service, t.lee, 'CORE', 'Nesting target');
  });

  it('an unknown field 3,000 levels deep, on a create, a change and a comment', async () => {
    for (const [method, path, fields] of [
      ['POST', '/tickets', '"project": "CORE", "summary": "Deep"'],
      ['PATCH', `/tickets/${deepKey}`, '"summary": "Deeper"'],
      ['POST', `/tickets/${deepKey}/comments`, '"body": "deep"'],
    ] as const) {
      const body = `{${fields}, "z": ${nested(3000)}}`;
      const reply = await service.request(method, `/api/v1${path}`, { token: t.lee, body });
      await expect422(reply, '/z');
      expect(reply.body.error.message).toBe('/z: nests arrays or objects more than 32 levels deep');
    }
    const ticket = await api('GET', `/tickets/${deepKey}`);
    expect(ticket.body.summary).toBe('Nesting target');
    expect(ticket.body.comments).toEqual([]);
  });

  it('objects as well as arrays, and a known field as well as an unknown one', async () => {
    const objects = `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`;
    const send = (method: string, path: string, body: string) => service.request(method, `/api/v1${path}`, { token: t.lee, body });
    await expect422(await send('POST', `/tickets/${deepKey}/comments`, `{"body": "x", "extra": ${objects}}`), '/extra');
    const points = `{"fields": {"points": ${nested(40, '1')}}}`;
    await expect422(await send('PATCH', `/tickets/${deepKey}`, points), '/fields');
  });

  it('32 levels are still taken', async () => {
    const body = `{"body": "shallow enough", "z": ${nested(31)}}`;
    const reply = await service.request('POST', `/api/v1/tickets/${deepKey}/comments`, { token: t.lee, body });
    expect(reply.status, reply.text).toBe(201);
  });

  it('over MCP: the same sentence as a tool error, for a tool argument 3,000 levels deep', async () => {
    const deep = JSON.parse(`{"z": ${nested(3000)}}`) as { z: unknown };
    const result = await tool('add_comment', { key: deepKey, body: 'deep', internal: deep.z });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe('/internal: nests arrays or objects more than 32 levels deep');
  });
});

describe('input: a number beyond what a column holds is 404 in a path and 422 in a parameter', () => {
  it('a board number past 2147483647 names no board, on every board path', async () => {
    for (const [method, path, body] of [
      ['GET', '/boards/2147483648'],
      ['GET', '/boards/2147483648/backlog'],
      ['GET', '/boards/2147483648/sprints'],
      ['POST', '/boards/2147483648/sprints', { name: 'S' }],
      ['PATCH', '/boards/2147483648/sprints/S', { goal: 'g' }],
      ['DELETE', '/boards/2147483648/sprints/S'],
      ['POST', '/boards/2147483648/sprints/S/start', { end_date: '2027-01-01' }],
      ['POST', '/boards/2147483648/sprints/S/complete', {}],
    ] as const) {
      const reply = await api(method, path, body);
      expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
    }
  });

  it('over MCP, get_board {board: 1e23} is the not-found sentence', async () => {
    const result = await tool('get_board', { board: 1e23 });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe('Board 1e+23 not found');
  });

  it('an offset past 2147483647 is 422', async () => {
    await expect422(await api('GET', '/tickets?offset=9223372036854775807'), '/offset');
  });

  it('time_spent_seconds past 2147483647 says how large it may be', async () => {
    const reply = await api('POST', `/tickets/${key}/worklogs`, { time_spent_seconds: 2147483648 });
    await expect422(reply, '/time_spent_seconds');
    expect(reply.body.error.message).toContain('2147483647');
  });
});

describe('input: a body in a charset other than UTF-8 is refused with 422', () => {
  it('Content-Type: application/json; charset=utf-16', async () => {
    const reply = await service.request('POST', `/api/v1/tickets/${key}/comments`, {
      token: t.lee,
      body: JSON.stringify({ body: 'hello' }),
      headers: { 'content-type': 'application/json; charset=utf-16' },
    });
    await expect422(reply, '/');
    expect((await api('GET', `/tickets/${key}`)).body.comments).toEqual([]);
  });

  it('charset=utf-8 is fine', async () => {
    const reply = await service.request('POST', `/api/v1/tickets/${key}/comments`, {
      token: t.lee,
      body: JSON.stringify({ body: 'in UTF-8' }),
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    });
    expect(reply.status).toBe(201);
  });
});

describe('input: a request line too long for the server is 431 in the spec’s envelope', () => {
  it('a 20,000-character query', async () => {
    const response = await fetch(`${service.url}/api/v1/tickets?query=${'a'.repeat(20_000)}`, {
      headers: { authorization: `Bearer ${t.lee}` },
    });
    expect(response.status).toBe(431);
    expect(await response.json()).toEqual({
      error: { code: 'headers_too_large', message: 'The request line or headers are larger than 16 KiB; send a shorter query string' },
    });
  });
});

describe('switches: a sprint lives on a board, so boards off switches sprints off too', () => {
  it('refuses every sprint operation and lists no sprint tool while boards are off', async () => {
    await setSwitch(service.db, 'boards', false);
    try {
      for (const [method, path, body] of [
        ['GET', '/boards/1/sprints'],
        ['POST', '/boards/1/sprints', { name: 'Off sprint' }],
      ] as const) {
        const reply = await api(method, path, body);
        expect(reply.status).toBe(403);
        expect(reply.body.error).toEqual({
          code: 'feature_disabled',
          message: 'The boards module is switched off in this workspace, and sprints live on it',
        });
      }
      const tools = (await postMcp(service, rpc('tools/list'), { token: t.lee })).body.result.tools.map((x: { name: string }) => x.name);
      expect(tools.filter((name: string) => /sprint/.test(name))).toEqual([]);
      expect((await tool('create_sprint', { board: 1, name: 'Off sprint' })).isError).toBe(true);
      expect((await service.db.selectFrom('sprints').select('id').where('name', '=', 'Off sprint').execute()).length).toBe(0);
    } finally {
      await setSwitch(service.db, 'boards', true);
    }
  });
});
