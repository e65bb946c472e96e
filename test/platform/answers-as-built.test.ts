import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineOperation } from '../../src/core/operation.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { serializerFor } from '../../src/core/serialization.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { callTool } from '../mcp/mcp-client.ts';

// ADR 0044: the large answers (a board, a backlog, a page of tickets) are written by JSON.stringify
// as their presenters build them, instead of by the schema's serializer, whose joined strings were
// most of a board's garbage. The tests run in `checked` mode, where every such answer is also
// written by the schema's serializer and must say the same.

const Pair = Type.Object({ first: Type.Integer(), second: Type.Integer() });

/** Builds its answer in the other order than its schema declares: only JSON.stringify keeps that order. */
const builtOperation = defineOperation({
  name: 'probe_built',
  tool: 'probe_built',
  method: 'GET',
  path: '/probe/built',
  module: 'core',
  access: 'read',
  summary: 'test: an answer written as built',
  description: 'test: answers its two fields in the other order than its schema',
  response: Pair,
  answerAsBuilt: true,
  handler: async () => ({ second: 2, first: 1 }),
});

/** The same schema and the same answer, without the mark: the mark is the operation's, not the schema's. */
const schemaOperation = defineOperation({
  name: 'probe_schema',
  tool: 'probe_schema',
  method: 'GET',
  path: '/probe/schema',
  module: 'core',
  access: 'read',
  summary: 'test: the same answer written by its schema',
  description: 'test: answers like probe_built without answerAsBuilt',
  response: Pair,
  handler: async () => ({ second: 2, first: 1 }),
});

/** An answer with a field its schema does not declare: what the check is there to catch. */
const leakingOperation = defineOperation({
  name: 'probe_leaking',
  tool: 'probe_leaking',
  method: 'GET',
  path: '/probe/leaking',
  module: 'core',
  access: 'read',
  summary: 'test: an answer with an undeclared field',
  description: 'test: answers a field its schema does not declare',
  response: Type.Object({ shown: Type.String() }),
  answerAsBuilt: true,
  handler: async () => ({ shown: 'yes', secret: 'hash' }) as { shown: string },
});

let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService({ registry: createRegistry([builtOperation, schemaOperation, leakingOperation]) });
  token = await service.token('lee@example.com');
});
afterAll(() => service.close());

describe('an answer written as built is written by JSON.stringify on both doors', () => {
  it('REST writes the object as its presenter built it', async () => {
    const reply = await service.request('GET', '/api/v1/probe/built', { token });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('{"second":2,"first":1}');
  });

  it('MCP writes the same text, and the same structured content', async () => {
    const result = await callTool(service, token, 'probe_built', {});
    expect(result.isError).toBe(false);
    expect(result.content[0]?.text).toBe('{"second":2,"first":1}');
    expect(result.structuredContent).toEqual({ first: 1, second: 2 });
  });
});

describe("an operation answering the same schema without the mark keeps the schema's serializer", () => {
  it("REST writes it in the schema's order, after the marked operation has answered", async () => {
    expect((await service.request('GET', '/api/v1/probe/built', { token })).text).toBe('{"second":2,"first":1}');
    const reply = await service.request('GET', '/api/v1/probe/schema', { token });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('{"first":1,"second":2}');
  });

  it('MCP does the same', async () => {
    expect((await callTool(service, token, 'probe_built', {})).content[0]?.text).toBe('{"second":2,"first":1}');
    const result = await callTool(service, token, 'probe_schema', {});
    expect(result.isError).toBe(false);
    expect(result.content[0]?.text).toBe('{"first":1,"second":2}');
  });
});

describe('in the tests, an answer written as built must be what its schema declares', () => {
  it('REST answers 500 for a field the schema does not declare, and does not show it', async () => {
    const reply = await service.request('GET', '/api/v1/probe/leaking', { token });
    expect(reply.status).toBe(500);
    expect(reply.body.error.code).toBe('internal');
    expect(reply.text).not.toContain('hash');
  });

  it('MCP answers an error result for it, and does not show it', async () => {
    const result = await callTool(service, token, 'probe_leaking', {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain('hash');
  });
});

describe('the serializer of an answer written as built', () => {
  const Shown = Type.Object({ id: Type.String(), name: Type.String() });

  it('is JSON.stringify outside the tests: the presenter is trusted with the fields', () => {
    const value = { name: 'Lee', id: 'm1' };
    expect(serializerFor(Shown, 'fast', true)(value)).toBe(JSON.stringify(value));
  });

  it('refuses in checked mode what the schema would write otherwise: a field too many, one missing, another type', () => {
    const serialize = serializerFor(Shown, 'checked', true);
    expect(serialize({ id: 'm1', name: 'Lee' })).toBe('{"id":"m1","name":"Lee"}');
    expect(() => serialize({ id: 'm1', name: 'Lee', email: 'lee@example.com' })).toThrow(/differs from what its schema declares/);
    expect(() => serialize({ id: 'm1' })).toThrow();
    expect(() => serialize({ id: 'm1', name: 7 })).toThrow(/differs from what its schema declares/);
  });

  it("is the schema's own serializer where the operation does not ask for it, which drops what it does not declare", () => {
    expect(serializerFor(Shown, 'fast', true)({ name: 'Lee', id: 'm1', email: 'lee@example.com' })).toContain('email');
    expect(serializerFor(Shown)({ name: 'Lee', id: 'm1', email: 'lee@example.com' })).toBe('{"id":"m1","name":"Lee"}');
  });
});
