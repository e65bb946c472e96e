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
  await service.request('GET', '/api/v1/me', { headers: { authorization: `Basic ${Buffer.from(`ada@example.com:${PASSWORD}`).toString('base64')}` } });
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

  it('logs an unexpected failure with its stack and the request id the client was given', () => {
    const failure = lines.map((line) => JSON.parse(line) as Record<string, any>).find((e) => e.err);
    expect(failure).toBeDefined();
    expect(failure!.err.stack).toContain(INTERNAL_DETAIL);
    expect(failure!.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('logging: never the Authorization header, tokens, passwords or request bodies (spec 5, issue 2)', () => {
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
