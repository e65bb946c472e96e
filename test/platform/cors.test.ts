import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

const ORIGIN = 'https://agent.example.org';
const CROSS_ORIGIN_PATHS = [
  '/api/v1/me',
  '/api/v1/projects/CORE',
  '/api/v1/openapi.json',
  '/api/v1/no-such-thing',
  '/mcp',
  '/oauth/register',
  '/oauth/token',
  '/oauth/revoke',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
];
/** Browser pages: same origin only. */
const OTHER_PATHS = ['/oauth/authorize', '/login', '/'];

let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService();
  token = await service.token('dev1@example.com', 'read');
});

afterAll(async () => {
  await service?.close();
});

function preflight(path: string, method = 'POST', headers = 'authorization, content-type, mcp-protocol-version, mcp-session-id') {
  return service.request('OPTIONS', path, {
    headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

describe('cors: any origin may call the API, MCP, OAuth endpoints and discovery documents (spec 4.10)', () => {
  it.each(CROSS_ORIGIN_PATHS)('answers a preflight for %s', async (path) => {
    const reply = await preflight(path);
    expect(reply.status).toBeLessThan(300);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    const allowed = String(reply.headers['access-control-allow-headers'])
      .toLowerCase()
      .split(/\s*,\s*/);
    for (const header of ['authorization', 'content-type', 'mcp-protocol-version', 'mcp-session-id']) expect(allowed).toContain(header);
    const methods = String(reply.headers['access-control-allow-methods']);
    for (const method of ['GET', 'POST']) expect(methods).toContain(method);
    expect(reply.headers['set-cookie']).toBeUndefined();
  });

  it.each(CROSS_ORIGIN_PATHS)('allows any origin and exposes WWW-Authenticate on %s', async (path) => {
    const reply = await service.request('GET', path, { headers: { origin: ORIGIN } });
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(String(reply.headers['access-control-expose-headers']).toLowerCase()).toContain('www-authenticate');
  });

  it('lets a page from another origin read an authenticated answer', async () => {
    const reply = await service.request('GET', '/api/v1/me', { token, headers: { origin: 'null' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets a page read the 401 challenge that starts OAuth', async () => {
    const reply = await service.request('GET', '/api/v1/me', { headers: { origin: ORIGIN } });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('cors: a preflight needs Origin and Access-Control-Request-Method and is answered before authentication', () => {
  it('answers 204 with nothing to read and lets the browser keep it ten minutes', async () => {
    const reply = await preflight('/api/v1/tickets/CORE-1', 'PATCH');
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect(reply.headers['access-control-max-age']).toBe('600');
    expect(String(reply.headers['access-control-allow-methods'])).toContain('PATCH');
  });

  it('refuses an OPTIONS without Origin or Access-Control-Request-Method with 400 in the error shape of spec 7', async () => {
    const withoutMethod = await service.request('OPTIONS', '/api/v1/me', { headers: { origin: ORIGIN } });
    expect(withoutMethod.status).toBe(400);
    expect(withoutMethod.body.error.code).toBe('invalid');
    expect(withoutMethod.body.error.message).toContain('Access-Control-Request-Method');
    const withoutOrigin = await service.request('OPTIONS', '/mcp', { headers: { 'access-control-request-method': 'POST' } });
    expect(withoutOrigin.status).toBe(400);
  });

  it('is an unknown route on a page path', async () => {
    expect((await preflight('/login')).status).toBe(404);
  });
});

describe('cors: other paths give no cross-origin permission', () => {
  it.each(OTHER_PATHS)('%s', async (path) => {
    const pre = await preflight(path);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const reply = await service.request('GET', path, { headers: { origin: ORIGIN } });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('cors: no answer on these paths sets a cookie (spec 4.10)', () => {
  it.each(CROSS_ORIGIN_PATHS)('%s', async (path) => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      for (const auth of [null, token]) {
        const reply = await service.request(method, path, {
          token: auth,
          headers: { origin: ORIGIN, cookie: 'session=abc; csrf=def' },
          body: method === 'GET' ? undefined : { grant_type: 'password', client_name: 'x', redirect_uris: ['https://x.example/cb'] },
        });
        expect(reply.headers['set-cookie'], `${method} ${path}`).toBeUndefined();
      }
    }
  });
});
