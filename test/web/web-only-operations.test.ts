import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineOperation } from '../../src/core/operation.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { registry } from '../../src/modules/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request } from '../mcp/mcp-client.ts';

// WEB.md §1: a function the spec keeps out of the API is still an operation, declared once, for
// the web door only; it never appears in OpenAPI or tools/list.

const declaredHere = defineOperation({
  name: 'declared_in_a_test',
  doors: 'web',
  module: 'crm',
  access: 'write',
  summary: 'A web-only operation declared by this test',
  description: 'Exists only to prove that a web-only operation stays out of the API doors.',
  body: Type.Object({ word: Type.String() }),
  response: Type.Object({ word: Type.String() }),
  handler: async (_ctx, input) => ({ word: input.word }),
});

let service: TestService;
let adminWrite: string;

beforeAll(async () => {
  service = await startTestService({ registry: createRegistry([...registry.byName.values(), declaredHere]) });
  adminWrite = await service.token('ada@example.com', 'write');
});
afterAll(async () => service?.close());

const webOnlyNames = () => [...registry.webOnly.map((op) => op.name), declaredHere.name];

describe('a web-only operation is absent from the OpenAPI document', () => {
  it('has no path, no operationId and no x-mcp-tool there, the service’s own and one declared in a test alike', async () => {
    expect(registry.webOnly.map((op) => op.name)).toEqual(
      expect.arrayContaining([
        'watch_ticket',
        'unwatch_ticket',
        'mark_notification_read',
        'mark_all_notifications_read',
        'set_email_notifications',
        'restore_page',
        'create_personal_token',
        'revoke_personal_token',
        'revoke_connection',
        'list_attachments',
        'add_attachments',
        'delete_attachment',
        'download_attachment',
        'list_votes',
        'vote_ticket',
        'unvote_ticket',
        'ticket_history',
        'set_attachment_limit',
        'list_ticket_links',
        'link_tickets',
        'unlink_tickets',
        'set_ticket_versions',
      ]),
    );
    const reply = await service.request('GET', '/api/v1/openapi.json');
    expect(reply.status).toBe(200);
    const ids = Object.values(reply.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) =>
      Object.values(methods).map((op) => op.operationId),
    );
    expect(ids.length).toBe(registry.operations.length);
    for (const name of webOnlyNames()) {
      expect(ids).not.toContain(name);
      expect(reply.text).not.toContain(`"${name}"`);
    }
  });
});

describe('a web-only operation is absent from MCP tools/list, for an administrator’s write token with every module on', () => {
  it('lists every tool of the API operations and none of the web-only ones', async () => {
    const reply = await postMcp(service, request('tools/list'), { token: adminWrite });
    expect(reply.status).toBe(200);
    const tools = (reply.body.result.tools as { name: string }[]).map((tool) => tool.name);
    expect(tools.length).toBe(registry.operations.filter((op) => op.tool !== null).length);
    for (const name of webOnlyNames()) expect(tools).not.toContain(name);
    const called = await postMcp(service, request('tools/call', { name: declaredHere.name, arguments: { word: 'hello' } }), {
      token: adminWrite,
    });
    expect(called.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: declared_in_a_test') });
  });
});

describe('a web-only operation has no REST route', () => {
  it('answers 404 at every address an API operation of its name could have', async () => {
    const paths = [
      '/api/v1/declared_in_a_test',
      '/api/v1/watch_ticket',
      '/api/v1/tickets/CORE-1/watch',
      '/api/v1/set_ticket_versions',
      '/api/v1/tickets/CORE-1/versions',
    ];
    const extras = ['/api/v1/tickets/CORE-1/attachments', '/api/v1/tickets/CORE-1/votes', '/api/v1/tickets/CORE-1/history'];
    for (const path of [...paths, ...extras]) {
      const reply = await service.request('POST', path, { token: adminWrite, body: { word: 'hello' } });
      expect(reply.status, path).toBe(404);
    }
    // attachments, votes and history are read in the browser only, too
    for (const path of extras) expect((await service.request('GET', path, { token: adminWrite })).status, path).toBe(404);
  });
});

describe('the registry refuses a web-only operation that claims a route or a tool', () => {
  it('fails at start-up', () => {
    const claimed = { ...declaredHere, tool: 'declared_in_a_test' };
    expect(() => createRegistry([claimed])).toThrow(/web-only operation has no tool and no path/);
  });
});

describe('only a web-only operation may be taken while the workspace is read-only (the AI agents page’s)', () => {
  it('the service’s are those of personal tokens and connected applications', () => {
    const taken = [...registry.byName.values()].filter((op) => op.takenWhileReadOnly).map((op) => op.name);
    expect(taken.sort()).toEqual(['create_personal_token', 'revoke_connection', 'revoke_personal_token']);
  });

  it('the registry refuses an API operation that claims it, at start-up', () => {
    const api = defineOperation({
      name: 'api_in_a_test',
      tool: null,
      method: 'POST',
      path: '/api-in-a-test',
      module: 'crm',
      access: 'write',
      summary: 'An API operation',
      description: 'Claims what only a web-only operation may.',
      response: Type.Object({}),
      handler: async () => ({}),
    });
    expect(() => createRegistry([{ ...api, takenWhileReadOnly: true }])).toThrow(
      /only a web-only operation is taken while the workspace is read-only/,
    );
  });
});
