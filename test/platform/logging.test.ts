import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogLines } from '../helpers/log-capture.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { INTERNAL_DETAIL, probeRegistry } from './probe-operations.ts';

const { sink, lines } = captureLogLines();

let service: TestService;
let token: string;
const BODY_MARKER = 'body-marker-7f3a9c';
const QUERY_MARKER = 'query-marker-c41b2e';
const PASSWORD = 'ada-password';

beforeAll(async () => {
  service = await startTestService({ registry: probeRegistry, logStream: sink, logLevel: 'debug' });
  token = await service.token('ada@example.com', 'write');
  // A morning's traffic: tokens in headers, bodies with secrets, a failure, a login, an OAuth exchange.
  await service.request('GET', '/api/v1/me', { token });
  await service.request('GET', `/api/v1/projects?secret=${QUERY_MARKER}&access_token=${token}`, { token });
  await service.request('POST', '/api/v1/probe/echo', { token, body: { title: BODY_MARKER, password: PASSWORD } });
  await service.request('POST', '/api/v1/probe/echo', { token, body: `{"title": "${BODY_MARKER}", ` });
  await service.request('GET', '/api/v1/probe/failure', { token });
  await service.request('GET', '/api/v1/me', { token: `${token}x` });
  await service.request('GET', '/api/v1/me', {
    headers: { authorization: `Basic ${Buffer.from(`ada@example.com:${PASSWORD}`).toString('base64')}` },
  });
  await service.request('POST', '/login', {
    body: `email=ada%40example.com&password=${PASSWORD}&note=${BODY_MARKER}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  await service.request('POST', '/oauth/token', {
    body: `grant_type=refresh_token&refresh_token=${token}&client_id=${BODY_MARKER}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
});

afterAll(async () => {
  await service?.close();
});

const everything = () => lines.join('\n');

describe('logging: JSON lines (pino) with a request id', () => {
  it('writes one JSON object a line, each request with its id, method, path and status', () => {
    expect(lines.length).toBeGreaterThan(0);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, any>);
    const completed = entries.filter((e) => e.res && e.reqId);
    expect(completed.length).toBeGreaterThanOrEqual(9);
    const received = entries.filter((e) => e.req);
    expect(received.map((e) => e.req.path)).toContain('/api/v1/me');
    for (const entry of received) expect(Object.keys(entry.req).sort()).toEqual(['method', 'path']);
    expect(completed.map((e) => e.res.statusCode)).toEqual(expect.arrayContaining([200, 401, 422, 500]));
  });

  it('logs an unexpected failure with its class, where it was thrown and the request id the client was given', () => {
    const failure = lines.map((line) => JSON.parse(line) as Record<string, any>).find((e) => e.err);
    expect(failure).toBeDefined();
    expect(failure!.err.type).toBe('Error');
    expect(failure!.err.stack).toMatch(/^\s+at .*probe-operations\.ts/);
    expect(failure!.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(failure!.operation).toBe('probe_failure');
  });

  it('never logs what the failure says: its message may hold the values it failed on', () => {
    expect(everything()).not.toContain(INTERNAL_DETAIL);
    expect(everything()).not.toContain('secret-file');
  });
});

describe('logging: never the Authorization header, tokens, passwords or request bodies (spec 5)', () => {
  it('never holds a token', () => {
    expect(everything()).not.toContain(token);
    expect(everything()).not.toContain(token.slice(8));
    expect(everything()).not.toMatch(/svc_pat_[A-Za-z0-9_-]{8}/);
  });

  it('never holds the Authorization header', () => {
    expect(everything().toLowerCase()).not.toContain('authorization');
    expect(everything()).not.toContain('Bearer ');
    expect(everything()).not.toContain('Basic ');
  });

  it('never holds a password', () => {
    expect(everything()).not.toContain(PASSWORD);
  });

  it('never holds a request body or a query string', () => {
    expect(everything()).not.toContain(BODY_MARKER);
    expect(everything()).not.toContain(QUERY_MARKER);
  });
});

describe('logging: each request line says who, through which agent, which operation, and the error code', () => {
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, any>);

  it('names the member, the token and the operation of an API request, and the code of a refusal', async () => {
    await service.request('GET', '/api/v1/projects/NOPE', { token, headers: { 'x-request-id': 'trace-42.a' } });
    const done = entries().find((e) => e.reqId === 'trace-42.a' && e.res);
    expect(done).toMatchObject({ operation: 'describe_project', agent: 'test agent', error: 'not_found', res: { statusCode: 404 } });
    expect(done!.member).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps an incoming X-Request-Id that looks like an id, and answers with it; replaces one that does not', async () => {
    const kept = await service.request('GET', '/api/v1/me', { token, headers: { 'x-request-id': 'edge-7f3a' } });
    expect(kept.headers['x-request-id']).toBe('edge-7f3a');
    const replaced = await service.request('GET', '/api/v1/me', { token, headers: { 'x-request-id': 'no spaces <allowed>' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names the tool of an MCP call, and the code of its error result', async () => {
    await service.request('POST', '/mcp', {
      token,
      headers: { 'x-request-id': 'mcp-call-1', 'mcp-protocol-version': '2025-11-25' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'describe_project', arguments: { project: 'NOPE' } } },
    });
    expect(entries().find((e) => e.reqId === 'mcp-call-1' && e.res)).toMatchObject({
      operation: 'describe_project',
      agent: 'test agent',
      error: 'not_found',
    });
  });
});

describe('REST: a query parameter or body field the operation does not take is named, never silently dropped', () => {
  it('names ?projct in a response header and the log line, and still answers (spec 4 ignores it)', async () => {
    const reply = await service.request('GET', '/api/v1/projects?projct=ATR', { token, headers: { 'x-request-id': 'typo-1' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['atrium-ignored-parameters']).toBe('?projct');
    expect(lines.map((line) => JSON.parse(line)).find((e) => e.reqId === 'typo-1' && e.res)).toMatchObject({ ignored: ['?projct'] });
    expect(everything()).not.toContain('projct=ATR');
  });

  it('names a body field as a JSON pointer', async () => {
    const reply = await service.request('POST', '/api/v1/probe/echo', { token, body: { title: 'x', titel: 'y' } });
    expect(reply.headers['atrium-ignored-parameters']).toBe('/titel');
  });

  it('percent-encodes a name a header cannot hold (found by the fuzz test)', async () => {
    const reply = await service.request('POST', '/api/v1/probe/echo', { token, body: { title: 'x', 'odd\u0000name é': 1 } });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toBe('/odd\\u0000name é: must not contain the NUL character (U+0000)');
    expect(reply.headers['atrium-ignored-parameters']).toBe('/odd%00name%20%C3%A9');
  });

  it('sends no such header when everything was taken', async () => {
    expect((await service.request('GET', '/api/v1/projects', { token })).headers['atrium-ignored-parameters']).toBeUndefined();
  });
});
