import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../src/app.ts';
import { startTestService, type Reply, type TestService } from '../helpers/service.ts';
import { INTERNAL_DETAIL, probeRegistry } from './probe-operations.ts';

let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService({ registry: probeRegistry });
  token = await service.token('lee@example.com', 'write');
});

afterAll(async () => {
  await service?.close();
});

/** The spec 7 envelope and nothing else: {"error": {"code", "message"}}. */
function expectError(reply: Reply, status: number, code: string, message?: string | RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expect(reply.body).toEqual({ error: { code, message: expect.any(String) } });
  if (typeof message === 'string') expect(reply.body.error.message).toBe(message);
  else if (message) expect(reply.body.error.message).toMatch(message);
}

const echo = (body: unknown, headers: Record<string, string> = {}) =>
  service.request('POST', '/api/v1/probe/echo', { token, body, headers });

describe('errors: an unknown route is 404 not_found in the envelope', () => {
  it.each(['/api/v1/nothing-here', '/api/v1', '/api/v1/projects/CORE/nothing', '/api/v1/me/extra'])('%s', async (path) => {
    expectError(await service.request('GET', path, { token }), 404, 'not_found');
  });

  it("answers a path that is not valid percent-encoding with 422 invalid, not the framework's own shape", async () => {
    expectError(await service.request('GET', '/api/v1/projects/%', { token }), 422, 'invalid', /^\/: /);
    expectError(await service.request('GET', '/api/v1/projects/%E0%A4%A', { token }), 422, 'invalid', /^\/: /);
  });

  it('is the same without a token', async () => {
    expectError(await service.request('GET', '/api/v1/nothing-here'), 404, 'not_found');
  });
});

describe('errors: a wrong method is 405 method_not_allowed with Allow', () => {
  it.each([
    ['DELETE', '/api/v1/me', 'GET'],
    ['POST', '/api/v1/projects/CORE', 'GET'],
    ['PUT', '/api/v1/projects', 'GET'],
    ['GET', '/api/v1/probe/echo', 'POST'],
    ['POST', '/api/v1/openapi.json', 'GET'],
  ])('%s %s', async (method, path, allow) => {
    const reply = await service.request(method, path, { token, body: method === 'GET' ? undefined : {} });
    expectError(reply, 405, 'method_not_allowed');
    expect(reply.headers.allow).toBe(allow);
  });
});

describe('errors: a body that is not JSON is 422 invalid (spec 4)', () => {
  it('refuses malformed JSON', async () => {
    expectError(await echo('{"title": '), 422, 'invalid', /^\/: /);
  });

  it.each([
    ['text/plain', 'title=hello'],
    ['application/x-www-form-urlencoded', 'title=hello'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nhello\r\n--x--\r\n'],
    ['application/xml', '<title>hello</title>'],
  ])('refuses %s', async (type, body) => {
    expectError(await echo(body, { 'content-type': type }), 422, 'invalid', /^\/: .*JSON/);
  });

  it('refuses JSON that is not an object', async () => {
    expectError(await echo('["title"]'), 422, 'invalid', /^\/: /);
    expectError(await echo('"title"'), 422, 'invalid', /^\/: /);
  });

  it('refuses an empty body sent as JSON', async () => {
    expectError(await echo('', { 'content-type': 'application/json' }), 422, 'invalid', /^\/: /);
  });

  it('takes JSON with a charset parameter', async () => {
    const reply = await echo(JSON.stringify({ title: 'ok' }), { 'content-type': 'application/json; charset=utf-8' });
    expect(reply.status).toBe(200);
  });
});

describe('errors: a body over 1 MiB is refused in the envelope', () => {
  it('answers 413 payload_too_large', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(BODY_LIMIT + 10) });
    expectError(await echo(big), 413, 'payload_too_large');
  });
});

describe('errors: a missing or wrong field is 422 invalid as `<json pointer>: <reason>`', () => {
  it('names a missing field', async () => {
    expectError(await echo({}), 422, 'invalid', '/title: is required');
  });

  it('treats a change sent with no body at all as an empty object', async () => {
    expectError(await service.request('POST', '/api/v1/probe/echo', { token }), 422, 'invalid', '/title: is required');
  });

  it('refuses a number where a string is expected, without coercing it', async () => {
    expectError(await echo({ title: 5 }), 422, 'invalid', '/title: must be string');
  });

  it('refuses a string where a number is expected, without coercing it', async () => {
    expectError(await echo({ title: 'ok', count: '5' }), 422, 'invalid', '/count: must be integer');
  });

  it('points into arrays', async () => {
    expectError(await echo({ title: 'ok', tags: ['a', 7] }), 422, 'invalid', '/tags/1: must be string');
  });

  it('lists the values of an enumeration', async () => {
    expectError(await echo({ title: 'ok', kind: 'epic' }), 422, 'invalid', '/kind: must be one of "bug", "task"');
  });

  it('refuses null for a required string', async () => {
    expectError(await echo({ title: null }), 422, 'invalid', '/title: must be string');
  });
});

describe('errors: fields the description does not name are ignored (spec 4)', () => {
  it('answers as if they were not there', async () => {
    const reply = await echo({ title: 'ok', count: 2, priority_id: 'whatever', nested: { deep: true } });
    expect(reply.status).toBe(200);
    expect(reply.body.received).toMatchObject({ title: 'ok', count: 2 });
  });
});

describe('errors: an unexpected exception is 500 with a generic message and a request id', () => {
  it('tells nothing internal and quotes the request id', async () => {
    const reply = await service.request('GET', '/api/v1/probe/failure', { token });
    expectError(reply, 500, 'internal');
    const requestId = String(reply.headers['x-request-id']);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.body.error.message).toContain(requestId);
    for (const leak of [INTERNAL_DETAIL, 'secret-file', 'tokens', 'Error:', '.ts:', ' at ']) expect(reply.text).not.toContain(leak);
  });

  it('gives every answer its own request id', async () => {
    const first = await service.request('GET', '/api/v1/me', { token });
    const second = await service.request('GET', '/api/v1/me', { token });
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  it('keeps a request id the client sends when it looks like an id, and replaces anything else', async () => {
    const kept = await service.request('GET', '/api/v1/me', { token, headers: { 'x-request-id': 'chosen-by-client' } });
    expect(kept.headers['x-request-id']).toBe('chosen-by-client');
    const replaced = await service.request('GET', '/api/v1/me', { token, headers: { 'x-request-id': `${'x'.repeat(200)}` } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
