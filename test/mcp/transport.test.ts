import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonalToken, revokeToken } from '../../src/auth/personal-tokens.ts';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { initializeParams, notification, postMcp, request } from './mcp-client.ts';

let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService();
  token = await service.token('lee@example.com', 'write');
});
afterAll(async () => service.close());

const post = (body: unknown, options: Parameters<typeof postMcp>[2] = {}) => postMcp(service, body, { token, ...options });

describe('transport: every message is a POST; GET and DELETE give 405 (spec 4.8 item 5)', () => {
  for (const method of ['GET', 'DELETE']) {
    it(`${method} /mcp is 405 and allows POST only`, async () => {
      const reply = await service.request(method, '/mcp', { token });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('POST');
    });
  }
});

describe('transport: a request is answered with one JSON body, never a stream (item 2)', () => {
  it('answers initialize with application/json', async () => {
    const reply = await post(request('initialize', initializeParams('2025-11-25')), { version: null });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', result: { protocolVersion: '2025-11-25', capabilities: { tools: {} } } });
  });
});

describe('transport: no session is ever issued (item 5)', () => {
  it('sends no Mcp-Session-Id on initialize, tools/list or a batch', async () => {
    const replies = [
      await post(request('initialize', initializeParams('2025-11-25')), { version: null }),
      await post(request('tools/list')),
      await post([request('ping'), request('tools/list')]),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.headers['mcp-session-id']).toBeUndefined();
    }
  });
});

describe('transport: a notification or a response is answered 202 with no body (item 3)', () => {
  it('answers notifications/initialized with 202 and an empty body', async () => {
    const reply = await post(notification('notifications/initialized'));
    expect(reply.status).toBe(202);
    expect(reply.text).toBe('');
  });

  it('answers a notification the server does not know with 202 too: notifications get no reply', async () => {
    const reply = await post(notification('notifications/no_such_thing'));
    expect(reply.status).toBe(202);
    expect(reply.text).toBe('');
  });

  it('answers a JSON-RPC response with 202 and an empty body', async () => {
    const reply = await post({ jsonrpc: '2.0', id: 'from-client', result: {} });
    expect(reply.status).toBe(202);
    expect(reply.text).toBe('');
  });
});

describe('transport: a batch is answered with an array of replies (item 4)', () => {
  it('answers each request of a batch in order', async () => {
    const ping = request('ping');
    const list = request('tools/list');
    const reply = await post([ping, list]);
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(2);
    expect(reply.body[0]).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
    expect(reply.body[1].id).toBe(list.id);
    expect(reply.body[1].result.tools.length).toBeGreaterThan(0);
  });

  it('answers a batch of one with an array of one', async () => {
    const ping = request('ping');
    const reply = await post([ping]);
    expect(reply.body).toEqual([{ jsonrpc: '2.0', id: ping.id, result: {} }]);
  });

  it('gives an invalid element its own error without spoiling the others, and no reply to notifications', async () => {
    const ping = request('ping');
    const unknownTool = request('tools/call', { name: 'no_such_tool', arguments: {} });
    const whoami = request('tools/call', { name: 'whoami', arguments: {} });
    const reply = await post([ping, notification('notifications/initialized'), { hello: 'world' }, 42, unknownTool, whoami]);
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(5);
    expect(reply.body[0]).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
    expect(reply.body[1]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(reply.body[2]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(reply.body[3]).toMatchObject({ id: unknownTool.id, error: { code: -32602 } });
    expect(reply.body[4]).toMatchObject({ id: whoami.id, result: { isError: false, structuredContent: { user: { name: 'Lee Lead' } } } });
  });

  it('keeps the id of an invalid element that has one', async () => {
    const reply = await post([{ jsonrpc: '1.0', id: 7, method: 'ping' }]);
    expect(reply.body).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.any(String) } }]);
  });

  it('answers an empty array as one invalid request', async () => {
    const reply = await post([]);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('refuses a batch of more than 100 messages as one invalid request', async () => {
    const reply = await post(Array.from({ length: 101 }, () => request('ping')));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect((await post(Array.from({ length: 100 }, () => request('ping')))).body).toHaveLength(100);
  });

  it('answers a batch of only notifications and responses with 202', async () => {
    const reply = await post([notification('notifications/initialized'), { jsonrpc: '2.0', id: 3, result: {} }]);
    expect(reply.status).toBe(202);
    expect(reply.text).toBe('');
  });

  it('refuses initialize inside a batch, answering the rest', async () => {
    const init = request('initialize', initializeParams('2025-03-26'));
    const ping = request('ping');
    const reply = await post([init, ping], { version: '2025-03-26' });
    expect(reply.body[0]).toMatchObject({ id: init.id, error: { code: -32600 } });
    expect(reply.body[1]).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
  });
});

describe('ping is answered with an empty result (item 6)', () => {
  it('returns {}', async () => {
    const ping = request('ping');
    const reply = await post(ping);
    expect(reply.body).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
  });
});

describe('initialize answers the requested version when known, else the newest (item 7)', () => {
  for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
    it(`answers ${version} with ${version}`, async () => {
      const reply = await post(request('initialize', initializeParams(version)), { version: null });
      expect(reply.body.result.protocolVersion).toBe(version);
      expect(reply.body.result.serverInfo).toMatchObject({ name: 'atrium' });
      expect(typeof reply.body.result.instructions).toBe('string');
    });
  }

  for (const version of ['1999-01-01', '2024-10-07', '2026-07-28']) {
    it(`answers ${version} with the newest, 2025-11-25`, async () => {
      const reply = await post(request('initialize', initializeParams(version)), { version: null });
      expect(reply.body.result.protocolVersion).toBe('2025-11-25');
    });
  }

  it('refuses initialize without params as invalid params (-32602)', async () => {
    const reply = await post(request('initialize'), { version: null });
    expect(reply.body.error.code).toBe(-32602);
  });
});

describe('MCP-Protocol-Version header (2025-11-25 transport)', () => {
  it('treats a request without the header as 2025-03-26: annotations but no outputSchema', async () => {
    const reply = await post(request('tools/list'), { version: null });
    expect(reply.status).toBe(200);
    const whoami = reply.body.result.tools.find((tool: { name: string }) => tool.name === 'whoami');
    expect(whoami.annotations).toBeDefined();
    expect(whoami.outputSchema).toBeUndefined();
  });

  it('answers an unsupported version with 400', async () => {
    for (const version of ['1999-01-01', '2024-10-07', 'latest']) {
      const reply = await post(request('tools/list'), { version });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
  });

  it('lets initialize through whatever the header says: its params carry the version', async () => {
    const reply = await post(request('initialize', initializeParams('2025-06-18')), { version: '1999-01-01' });
    expect(reply.body.result.protocolVersion).toBe('2025-06-18');
  });

  it('shows 2025-11-25 clients title, outputSchema and structuredContent', async () => {
    const list = await post(request('tools/list'));
    const whoami = list.body.result.tools.find((tool: { name: string }) => tool.name === 'whoami');
    expect(whoami).toMatchObject({ title: expect.any(String), outputSchema: { type: 'object' } });
    const call = await post(request('tools/call', { name: 'whoami', arguments: {} }));
    expect(call.body.result.structuredContent).toMatchObject({ agent: { access: 'write' } });
  });

  it('keeps 2024-11-05 clients to the fields of their schema: no annotations or structuredContent', async () => {
    const list = await post(request('tools/list'), { version: '2024-11-05' });
    for (const tool of list.body.result.tools) expect(Object.keys(tool).sort()).toEqual(['description', 'inputSchema', 'name']);
    const call = await post(request('tools/call', { name: 'whoami', arguments: {} }), { version: '2024-11-05' });
    expect(call.body.result.structuredContent).toBeUndefined();
    expect(JSON.parse(call.body.result.content[0].text)).toMatchObject({ user: { name: 'Lee Lead' } });
  });
});

describe('protocol errors are JSON-RPC errors (spec 4.8, tool results)', () => {
  it('-32700 for JSON that does not parse', async () => {
    const reply = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('-32600 for a body that is not a JSON-RPC 2.0 message', async () => {
    for (const body of [{ hello: 'world' }, { jsonrpc: '2.0', id: null, method: 'ping' }, 'null', '"text"']) {
      const reply = await post(body);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
  });

  it('-32601 for a method the server does not have', async () => {
    for (const method of ['resources/list', 'prompts/list', 'logging/setLevel', 'no/such']) {
      const message = request(method);
      const reply = await post(message);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ id: message.id, error: { code: -32601 } });
    }
  });

  it('-32602 for an unknown tool, a call without a name, and arguments that are not an object', async () => {
    for (const params of [{ name: 'no_such_tool' }, {}, { name: 42 }, { name: 'whoami', arguments: [1] }]) {
      const message = request('tools/call', params);
      const reply = await post(message);
      expect(reply.body).toMatchObject({ id: message.id, error: { code: -32602 } });
    }
  });

  it('413 for a body over 1 MiB, as a JSON-RPC error', async () => {
    const reply = await post(request('tools/call', { name: 'whoami', arguments: { padding: 'x'.repeat(1024 * 1024) } }));
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('415 for a body that is not sent as JSON', async () => {
    const reply = await post(JSON.stringify(request('ping')), { headers: { 'content-type': 'text/plain' } });
    expect(reply.status).toBe(415);
  });

  it('JSON named with a UTF-8 charset is read; JSON in another charset is 415', async () => {
    const message = request('ping');
    for (const type of ['application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"']) {
      const reply = await post(JSON.stringify(message), { headers: { 'content-type': type } });
      expect(reply.status, type).toBe(200);
      expect(reply.body).toEqual({ jsonrpc: '2.0', id: message.id, result: {} });
    }
    const refused = await post(JSON.stringify(request('ping')), { headers: { 'content-type': 'application/json; charset=utf-16' } });
    expect(refused.status).toBe(415);
    expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });
});

describe('a request is exactly a JSON-RPC 2.0 request, else -32600 (spec 4.8; the fast check agrees with the SDK schema)', () => {
  const refusedShapes: Array<[string, Record<string, unknown>, number | null]> = [
    ['a key JSON-RPC does not define', { jsonrpc: '2.0', id: 31, method: 'ping', extra: true }, 31],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, null],
    ['an id beyond the safe integers', { jsonrpc: '2.0', id: 2 ** 53, method: 'ping' }, 2 ** 53],
    ['params null', { jsonrpc: '2.0', id: 32, method: 'ping', params: null }, 32],
    ['params an array', { jsonrpc: '2.0', id: 33, method: 'tools/call', params: ['whoami'] }, 33],
    ['params._meta not an object', { jsonrpc: '2.0', id: 34, method: 'ping', params: { _meta: 5 } }, 34],
    ['a method that is not a string', { jsonrpc: '2.0', id: 35, method: 7 }, 35],
    ['jsonrpc other than "2.0"', { jsonrpc: '1.0', id: 36, method: 'ping' }, 36],
  ];
  for (const [shape, message, id] of refusedShapes) {
    it(`refuses ${shape}`, async () => {
      const reply = await post(message);
      // A message whose id can be read is answered 200 with the error under that id; one without is a 400.
      expect(reply.status).toBe(id === null ? 400 : 200);
      expect(reply.body).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
    });
  }

  it('answers ids of every allowed shape: negative, zero, the largest safe integer, the empty string', async () => {
    for (const id of [-3, 0, Number.MAX_SAFE_INTEGER, '']) {
      const reply = await post({ jsonrpc: '2.0', id, method: 'ping' });
      expect(reply.status, String(id)).toBe(200);
      expect(reply.body).toEqual({ jsonrpc: '2.0', id, result: {} });
    }
  });

  it('answers a tool call whose params carry _meta with a progress token', async () => {
    const message = request('tools/call', { name: 'whoami', arguments: {}, _meta: { progressToken: 'p-1' } });
    const reply = await post(message);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      jsonrpc: '2.0',
      id: message.id,
      result: { isError: false, structuredContent: { user: { name: 'Lee Lead' } } },
    });
  });
});

// The token's check of a principal the process holds waits for the body: a read tool's statement
// carries it (auth/bearer.ts, DeferredTokenCheck), any other message settles it before its answer.
describe('HTTP level: a token revoked while the process holds its principal is refused at once, whatever the body (spec 4.8, 5.5)', () => {
  const invalid =
    'Bearer realm="atrium", error="invalid_token", resource_metadata="http://localhost:8080/.well-known/oauth-protected-resource/mcp"';
  let key: string;

  beforeAll(async () => {
    const created = await service.request('POST', '/api/v1/tickets', {
      token,
      body: { project: 'CORE', summary: 'Read over MCP with its check' },
    });
    expect(created.status).toBe(201);
    key = created.body.key;
  });

  const commentCount = async () => (await service.request('GET', `/api/v1/tickets/${key}`, { token })).body.comments.length as number;

  const bodies: [string, () => unknown, number][] = [
    ['a read tool (the check rides in its statement)', () => request('tools/call', { name: 'get_ticket', arguments: { key } }), 200],
    ['a read tool on a missing ticket', () => request('tools/call', { name: 'get_ticket', arguments: { key: 'CORE-99999' } }), 200],
    [
      'a change whose first read carries the check',
      () => request('tools/call', { name: 'add_comment', arguments: { key, body: 'Checked first' } }),
      200,
    ],
    [
      'a change checked before it runs',
      () => request('tools/call', { name: 'update_ticket', arguments: { key, summary: 'Checked first' } }),
      200,
    ],
    ['tools/list', () => request('tools/list'), 200],
    ['a batch', () => [request('ping'), request('tools/call', { name: 'get_ticket', arguments: { key } })], 200],
    ['a body that is not JSON', () => '{"jsonrpc":', 400],
  ];
  for (const [what, body, status] of bodies) {
    it(what, async () => {
      const lee = await service.db.selectFrom('members').select('id').where('email', '=', 'lee@example.com').executeTakeFirstOrThrow();
      const minted = await createPersonalToken(service.db, {
        memberId: lee.id,
        name: 'held then revoked',
        access: 'write',
        lifetimeDays: null,
      });
      expect((await post(body(), { token: minted.secret })).status).toBe(status);
      expect((await post(body(), { token: minted.secret })).status).toBe(status);
      expect(await revokeToken(service.db, lee.id, minted.id)).toBe(true);
      const comments = await commentCount();
      const refused = await post(body(), { token: minted.secret });
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe(invalid);
      expect(refused.body).toMatchObject({ error: { code: 'invalid_token' } });
      // a refused change changed nothing
      expect(await commentCount()).toBe(comments);
    });
  }

  it('shows a read tool what the workspace file changed since the principal was read', async () => {
    const file = fs.readFileSync(new URL('../fixtures/workspace.yaml', import.meta.url), 'utf8');
    const viewer = '      - { role: Viewer, members: [vic@example.com] }\n';
    expect(file).toContain(viewer);
    const vic = await service.token('vic@example.com', 'read', 'viewer over MCP');
    const read = async () => (await post(request('tools/call', { name: 'get_ticket', arguments: { key } }), { token: vic })).body.result;
    expect((await read()).isError).toBe(false);
    expect((await read()).isError).toBe(false);
    try {
      await applyWorkspace(service.db, parseWorkspaceYaml(file.replace(viewer, ''), 'workspace.yaml'));
      const hidden = await read();
      expect(hidden.isError).toBe(true);
      expect(hidden.content[0].text).toMatch(/not found|no ticket/i);
    } finally {
      await applyWorkspace(service.db, parseWorkspaceYaml(file, 'workspace.yaml'));
    }
    expect((await read()).isError).toBe(false);
  });

  it('makes a change once, for the principal as the workspace file left it since it was read', async () => {
    const file = fs.readFileSync(new URL('../fixtures/workspace.yaml', import.meta.url), 'utf8');
    const lee = await service.token('lee@example.com', 'write', 'commenting over MCP');
    const add = async (body: string) =>
      (await post(request('tools/call', { name: 'add_comment', arguments: { key, body } }), { token: lee })).body.result;
    expect((await add('as Lee Lead over MCP')).isError).toBe(false);
    try {
      await applyWorkspace(service.db, parseWorkspaceYaml(file.replace('- { name: Lee Lead,', '- { name: Lee Renamed,'), 'workspace.yaml'));
      const added = await add('as Lee Renamed over MCP');
      expect(added.isError).toBe(false);
      expect(added.structuredContent.author.name).toBe('Lee Renamed');
    } finally {
      await applyWorkspace(service.db, parseWorkspaceYaml(file, 'workspace.yaml'));
    }
    const texts = (await service.request('GET', `/api/v1/tickets/${key}`, { token })).body.comments.map(
      (c: { body: { text: string } }) => c.body.text,
    );
    expect(texts.filter((text: string) => text === 'as Lee Renamed over MCP')).toHaveLength(1);
  });
});

describe('HTTP level: no or bad token gives 401 with the challenge that starts OAuth (spec 4.8, 5.5)', () => {
  const metadata = 'resource_metadata="http://localhost:8080/.well-known/oauth-protected-resource/mcp"';

  it('without a token: realm and resource_metadata, no error code', async () => {
    const reply = await post(request('ping'), { token: null });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(`Bearer realm="atrium", ${metadata}`);
    expect(reply.body).toMatchObject({ error: { code: 'invalid_token' } });
  });

  it('with an unknown token: error="invalid_token" as well', async () => {
    const reply = await post(request('ping'), { token: 'svc_pat_not-a-real-token' });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(`Bearer realm="atrium", error="invalid_token", ${metadata}`);
  });

  it('a token in the query string is not accepted', async () => {
    const reply = await service.request('POST', `/mcp?access_token=${token}`, { body: request('ping') });
    expect(reply.status).toBe(401);
  });

  it('serves the MCP protected-resource metadata naming /mcp', async () => {
    const reply = await service.request('GET', '/.well-known/oauth-protected-resource/mcp');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      resource: 'http://localhost:8080/mcp',
      authorization_servers: ['http://localhost:8080'],
      scopes_supported: ['tickets:read', 'tickets:write'],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('cross-origin access (spec 4.10)', () => {
  it('answers a preflight from any origin, allowing the MCP headers', async () => {
    const reply = await service.request('OPTIONS', '/mcp', {
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(reply.status).toBeLessThan(300);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(String(reply.headers['access-control-allow-headers']).toLowerCase()).toContain('mcp-protocol-version');
  });

  it('exposes WWW-Authenticate and sets no cookie', async () => {
    const reply = await post(request('ping'), { token: null, headers: { origin: 'https://agent.example' } });
    expect(String(reply.headers['access-control-expose-headers'])).toContain('WWW-Authenticate');
    expect(reply.headers['set-cookie']).toBeUndefined();
  });
});
