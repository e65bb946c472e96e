import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { readSettings, setSwitch } from '../../src/core/settings.ts';
import { codeHostingIntegrationEnabled, codeHostingParagraph } from '../../src/surfaces/mcp/instructions.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { fixtureRegistry } from './fixture-operations.ts';
import { initializeParams, request } from './mcp-client.ts';

// The real service's database and tokens, served by an app whose registry also holds test-only
// operations (a CRM module, a write tool, a renamed path parameter, an unexpected failure).
let service: TestService;
let app: FastifyInstance;
let tokens: Record<'adaWrite' | 'adaRead' | 'leeWrite', string>;

beforeAll(async () => {
  service = await startTestService();
  app = await buildApp({
    config: { publicUrl: service.publicUrl, logLevel: 'silent' },
    database: service.database,
    registry: fixtureRegistry,
  });
  await app.ready();
  tokens = {
    adaWrite: await service.token('ada@example.com', 'write'),
    adaRead: await service.token('ada@example.com', 'read'),
    leeWrite: await service.token('lee@example.com', 'write'),
  };
});
afterAll(async () => {
  await app.close();
  await service.close();
});

async function mcp(token: string, message: unknown) {
  const reply = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
    payload: JSON.stringify(message),
  });
  return reply.json();
}

async function rest(token: string, method: 'GET' | 'POST', url: string, body?: unknown) {
  const reply = await app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: reply.statusCode, body: reply.json() };
}

const toolNames = async (token: string): Promise<string[]> =>
  (await mcp(token, request('tools/list'))).result.tools.map((tool: { name: string }) => tool.name);
const call = async (token: string, name: string, args: Record<string, unknown>) =>
  (await mcp(token, request('tools/call', { name, arguments: args }))).result;
const instructions = async (token: string): Promise<string> =>
  (await mcp(token, request('initialize', initializeParams('2025-11-25')))).result.instructions;

describe('tools: inputSchema is the path, query and body parameters merged, path ones renamed (spec 4.8)', () => {
  it('merges the three parts under the tool argument names', async () => {
    const tools = (await mcp(tokens.adaWrite, request('tools/list'))).result.tools;
    const echo = tools.find((tool: { name: string }) => tool.name === 'fixture_echo');
    expect(Object.keys(echo.inputSchema.properties)).toEqual(['project', 'limit', 'text', 'flag']);
    expect(echo.inputSchema).toMatchObject({ type: 'object', required: ['project', 'text'], additionalProperties: false });
  });

  it('gives a tool without arguments the recommended empty object schema', async () => {
    const tools = (await mcp(tokens.adaWrite, request('tools/list'))).result.tools;
    const boom = tools.find((tool: { name: string }) => tool.name === 'fixture_boom');
    expect(boom.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('marks annotations from the operation: read, destructive, idempotent, never open-world', async () => {
    const tools = (await mcp(tokens.adaWrite, request('tools/list'))).result.tools;
    const annotations = (name: string) => tools.find((tool: { name: string }) => tool.name === name).annotations;
    expect(annotations('fixture_crm_read')).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(annotations('fixture_destroy')).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(annotations('fixture_echo')).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});

describe('tools/call: an argument the tool does not take is refused, naming the ones it takes (its inputSchema has additionalProperties: false)', () => {
  it('refuses log_work {comment} as a tool error that lists what log_work takes, and logs nothing', async () => {
    const created = await rest(tokens.adaWrite, 'POST', '/tickets', { project: 'CORE', summary: 'Work to log' });
    expect(created.status).toBe(201);
    const result = await call(tokens.adaWrite, 'log_work', { key: created.body.key, time_spent: '1h', comment: 'done' });
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'log_work takes no argument "comment"; it takes key, time_spent, time_spent_seconds, started_at, body.' },
      ],
      isError: true,
    });
    const after = await rest(tokens.adaWrite, 'GET', `/tickets/${created.body.key}`);
    expect(after.body.worklogs).toEqual([]);
    expect(after.body.time_spent_seconds).toBeNull();
  });

  it('refuses get_board {number}: the tool names its board `board`', async () => {
    const result = await call(tokens.adaWrite, 'get_board', { number: 1 });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe('get_board takes no argument "number"; it takes board, sprint.');
  });

  it('says so for a tool that takes no arguments at all', async () => {
    const result = await call(tokens.adaWrite, 'whoami', { verbose: true });
    expect(result.content[0].text).toBe('whoami takes no argument "verbose"; it takes no arguments.');
  });
});

describe('tools/call: arguments split back into path, query and body, validated as REST validates', () => {
  it('answers what REST answers, the fields outside the response schema dropped alike', async () => {
    const result = await call(tokens.adaWrite, 'fixture_echo', { project: 'AB', limit: 5, text: 'hi', flag: true });
    const viaRest = await rest(tokens.adaWrite, 'POST', '/fixture/echo/AB?limit=5', { text: 'hi', flag: true, unknown: 1 });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ project: 'AB', limit: 5, text: 'hi', flag: true });
    expect(result.structuredContent).toEqual(viaRest.body);
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  });

  it('applies defaults and coerces query values as REST does', async () => {
    expect((await call(tokens.adaWrite, 'fixture_echo', { project: 'AB', text: 'x' })).structuredContent.limit).toBe(20);
    expect((await call(tokens.adaWrite, 'fixture_echo', { project: 'AB', limit: '7', text: 'x' })).structuredContent.limit).toBe(7);
  });

  it('refuses a wrong body type strictly, with the REST sentence, as an error result', async () => {
    const result = await call(tokens.adaWrite, 'fixture_echo', { project: 'AB', text: 5 });
    const viaRest = await rest(tokens.adaWrite, 'POST', '/fixture/echo/AB', { text: 5 });
    expect(viaRest.status).toBe(422);
    expect(result).toEqual({ content: [{ type: 'text', text: viaRest.body.error.message }], isError: true });
    expect(result.content[0].text).toBe('/text: must be string');
  });

  it('names a missing field as REST does', async () => {
    const result = await call(tokens.adaWrite, 'fixture_echo', { project: 'AB' });
    expect(result.content[0].text).toBe((await rest(tokens.adaWrite, 'POST', '/fixture/echo/AB', {})).body.error.message);
  });

  it('names a renamed path parameter by the tool argument the model sent', async () => {
    const result = await call(tokens.adaWrite, 'fixture_echo', { project: 'A', text: 'x' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe('/project: must NOT have fewer than 2 characters');
  });
});

describe('tools/call: an unexpected failure is a generic error result with the request id, never internals', () => {
  it('hides the cause', async () => {
    const result = await call(tokens.adaWrite, 'fixture_boom', {});
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^Something went wrong on our side; quote request id [0-9a-f-]{36} when reporting it$/);
    expect(JSON.stringify(result)).not.toContain('secret_table');
  });
});

describe('tools: a read token is offered only read tools (spec 4.8)', () => {
  it('lists read tools only', async () => {
    const names = await toolNames(tokens.adaRead);
    expect(names).toContain('fixture_crm_read');
    expect(names).not.toContain('fixture_crm_write');
    expect(names).not.toContain('fixture_echo');
    expect(names).not.toContain('fixture_destroy');
  });

  it('refuses a write tool called anyway with the REST sentence', async () => {
    const result = await call(tokens.adaRead, 'fixture_crm_write', { text: 'x' });
    const viaRest = await rest(tokens.adaRead, 'POST', '/fixture/crm', { text: 'x' });
    expect(viaRest.status).toBe(403);
    expect(result).toEqual({ content: [{ type: 'text', text: viaRest.body.error.message }], isError: true });
  });
});

describe('tools: a switched-off module is not listed, and calling its tool says it is switched off (spec 4.8)', () => {
  it('hides the CRM tools while the CRM is off and brings them back when it is on', async () => {
    expect(await toolNames(tokens.adaWrite)).toContain('fixture_crm_read');
    await setSwitch(service.db, 'crm', false);
    try {
      const names = await toolNames(tokens.adaWrite);
      expect(names).not.toContain('fixture_crm_read');
      expect(names).not.toContain('fixture_crm_write');
      expect(names).toContain('whoami');
      const result = await call(tokens.adaWrite, 'fixture_crm_write', { text: 'whatever' });
      const viaRest = await rest(tokens.adaWrite, 'POST', '/fixture/crm', { text: 'whatever' });
      expect(viaRest.body.error.code).toBe('feature_disabled');
      expect(result).toEqual({ content: [{ type: 'text', text: viaRest.body.error.message }], isError: true });
      expect(result.content[0].text).toMatch(/CRM module is switched off/);
      // Whatever the arguments: the switch speaks first.
      expect((await call(tokens.adaWrite, 'fixture_crm_write', {})).content[0].text).toMatch(/switched off/);
    } finally {
      await setSwitch(service.db, 'crm', true);
    }
    expect(await toolNames(tokens.adaWrite)).toContain('fixture_crm_read');
  });
});

describe('initialize: instructions name CRM tools only to a member who may see the CRM, writing ones only to a write connection', () => {
  it('names the CRM read and write tools to an administrator with write access', async () => {
    const text = await instructions(tokens.adaWrite);
    expect(text).toContain('## CRM');
    expect(text).toContain('`fixture_crm_read`');
    expect(text).toContain('`fixture_crm_write`');
  });

  it('names only the CRM read tools to a read connection', async () => {
    const text = await instructions(tokens.adaRead);
    expect(text).toContain('`fixture_crm_read`');
    expect(text).not.toContain('fixture_crm_write');
    expect(text).toContain('can only read');
  });

  it('names no CRM tool to a member without a CRM role', async () => {
    const text = await instructions(tokens.leeWrite);
    expect(text).not.toContain('CRM');
    expect(text).not.toContain('fixture_crm');
  });

  it('names no CRM tool while the CRM is switched off', async () => {
    await setSwitch(service.db, 'crm', false);
    try {
      expect(await instructions(tokens.adaWrite)).not.toContain('fixture_crm');
    } finally {
      await setSwitch(service.db, 'crm', true);
    }
  });
});

describe('initialize: instructions explain helpdesk forms while the helpdesk is switched on', () => {
  it('names list_request_types and request_type on create_ticket', async () => {
    const text = await instructions(tokens.leeWrite);
    expect(text).toContain('## Helpdesk');
    expect(text).toContain('`list_request_types`');
    expect(text).toContain('`request_type`');
  });

  it('leaves the paragraph out while the helpdesk is switched off', async () => {
    await setSwitch(service.db, 'helpdesk', false);
    try {
      expect(await instructions(tokens.leeWrite)).not.toContain('request_type');
    } finally {
      await setSwitch(service.db, 'helpdesk', true);
    }
  });
});

describe('initialize: the code-hosting paragraph appears only when the integration is switched on', () => {
  it('is absent while no workspace has the integration (it does not exist yet)', async () => {
    expect(codeHostingIntegrationEnabled(await readSettings(service.db))).toBe(false);
    expect(await instructions(tokens.adaWrite)).not.toMatch(/branch|commit/i);
  });

  it('explains commit commands only to a write connection whose integration acts on them', () => {
    expect(codeHostingParagraph('write', true)).toContain('#comment');
    expect(codeHostingParagraph('read', true)).not.toContain('#comment');
    expect(codeHostingParagraph('write', false)).not.toContain('#comment');
    expect(codeHostingParagraph('read', false)).toContain('branch name');
  });
});
