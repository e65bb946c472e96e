import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeExpiredRecords, removeUnusedClients } from '../../src/oauth/clients.ts';
import { setSwitch } from '../../src/core/settings.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { loggedIn, newAddress, send } from './support.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ publicUrl: 'https://acme.example.test' });
});
afterAll(async () => service?.close());

const register = (body: unknown, address = newAddress()) => send(service, 'POST', '/oauth/register', { json: body, address });
const withUri = (uri: unknown) => register({ client_name: 'Agent', redirect_uris: [uri] });

describe('DCR-1: a public client registers', () => {
  it('answers 201 with a client id, every registered field, no secret, no-store and no cookie', async () => {
    const body = {
      client_name: 'Agent',
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    const response = await register(body);
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ ...body, scope: 'tickets:read tickets:write' });
    expect(response.json.client_id).toMatch(/^svc_client_[A-Za-z0-9_-]{43}$/);
    expect(Number.isInteger(response.json.client_id_issued_at)).toBe(true);
    expect(response.json.client_secret).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});

describe('DCR-2: a confidential client gets a secret shown once', () => {
  it.each(['client_secret_basic', 'client_secret_post'])('%s: 201 with svc_cs_ secret and client_secret_expires_at 0', async (method) => {
    const response = await register({
      client_name: 'Server',
      redirect_uris: ['https://app.example.org/cb'],
      token_endpoint_auth_method: method,
    });
    expect(response.status).toBe(201);
    expect(response.json.client_secret).toMatch(/^svc_cs_[A-Za-z0-9_-]{43}$/);
    expect(response.json.client_secret_expires_at).toBe(0);
    expect(response.json.token_endpoint_auth_method).toBe(method);
  });
});

describe('DCR-3: the auth method defaults to none (spec 5.2 wins over RFC 7591)', () => {
  it('registers a public client when the field is left out', async () => {
    const response = await register({ redirect_uris: ['http://localhost:3000/cb'] });
    expect(response.status).toBe(201);
    expect(response.json.token_endpoint_auth_method).toBe('none');
    expect(response.json.client_secret).toBeUndefined();
  });
});

describe('DCR-4: redirect URI rules', () => {
  it.each([
    'https://app.example.org/cb',
    'https://app.example.org/cb?tenant=1',
    'http://127.0.0.1/callback',
    'http://127.0.0.1:8080/cb',
    'http://localhost:3000/cb',
    'http://[::1]:9999/cb',
    'com.example.app:/oauth2redirect',
    'myapp:/cb',
    'cursor://anysphere.cursor-mcp/oauth/callback',
  ])('accepts %s', async (uri) => {
    const response = await withUri(uri);
    expect(response.status).toBe(201);
    expect(response.json.redirect_uris).toEqual([uri]);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    'file:///etc/passwd',
    'blob:https://x/y',
    'about:blank',
    'http://example.org/cb',
    'http://127.0.0.1.nip.io/cb',
    'http://localhost.evil.test/cb',
    'http://127.0.0.2/cb',
    'https://app.example.org/cb#x',
    'https://app.example.org/cb#',
    'https://user:pw@app.example.org/cb',
    'https://*.example.org/cb',
    '/cb',
    '//evil.test/cb',
    'https://',
    '',
    `https://app.example.org/${'a'.repeat(2000)}`,
    'https://app.example.org/c\rb',
    'https://app.example.org/c\nb',
    'https://app.example.org/c\tb',
    'https://app.example.org/c\u0000b',
    'https://app.example.org/\u202ecb',
  ])('refuses %j with 400 invalid_redirect_uri', async (uri) => {
    const response = await withUri(uri);
    expect(response.status).toBe(400);
    expect(response.json.error).toBe('invalid_redirect_uri');
    expect(typeof response.json.error_description).toBe('string');
  });

  it('refuses a non-string element', async () => {
    const response = await withUri(42);
    expect(response.status).toBe(400);
    expect(response.json.error).toBe('invalid_redirect_uri');
  });

  it('needs 1 to 10 addresses', async () => {
    expect((await register({ redirect_uris: [] })).json.error).toBe('invalid_redirect_uri');
    const eleven = Array.from({ length: 11 }, (_, i) => `https://app.example.org/cb${i}`);
    expect((await register({ redirect_uris: eleven })).status).toBe(400);
    expect((await register({ redirect_uris: eleven.slice(0, 10) })).status).toBe(201);
    expect((await register({ client_name: 'No URIs' })).json.error).toBe('invalid_redirect_uri');
  });
});

describe('DCR-5: client_name up to 100 characters; other metadata kept, unknown accepted', () => {
  it('accepts 100 characters and refuses 101', async () => {
    expect((await register({ client_name: 'x'.repeat(100), redirect_uris: ['https://a.example/cb'] })).status).toBe(201);
    const tooLong = await register({ client_name: 'x'.repeat(101), redirect_uris: ['https://a.example/cb'] });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error).toBe('invalid_client_metadata');
  });

  it('keeps client_uri, logo_uri, software_id and software_version and ignores application_type', async () => {
    const extra = {
      client_uri: 'https://app.example.org',
      logo_uri: 'https://app.example.org/logo.png',
      software_id: 'agent',
      software_version: '1.2.3',
    };
    const response = await register({ redirect_uris: ['https://a.example/cb'], application_type: 'native', ...extra });
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject(extra);
  });

  it('refuses unsupported grant types, response types and auth methods with invalid_client_metadata', async () => {
    for (const body of [
      { grant_types: ['implicit'] },
      { grant_types: ['client_credentials'] },
      { response_types: ['token'] },
      { token_endpoint_auth_method: 'private_key_jwt' },
      { scope: 'admin' },
    ]) {
      const response = await register({ redirect_uris: ['https://a.example/cb'], ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.error).toBe('invalid_client_metadata');
    }
  });

  it('refuses a body that is not a JSON object', async () => {
    const response = await send(service, 'POST', '/oauth/register', { form: { redirect_uris: 'https://a.example/cb' } });
    expect(response.status).toBe(400);
    expect(response.json.error).toBe('invalid_client_metadata');
  });
});

describe('spec 8: 30 registrations an hour per address', () => {
  it('answers the 31st with 429 slow_down and Retry-After', async () => {
    const address = newAddress();
    for (let i = 0; i < 30; i++) expect((await register({ redirect_uris: ['https://a.example/cb'] }, address)).status).toBe(201);
    const refused = await register({ redirect_uris: ['https://a.example/cb'] }, address);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe('slow_down');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await register({ redirect_uris: ['https://a.example/cb'] })).status).toBe(201);
  });
});

describe('spec 5.2: registration is refused while both the REST API and MCP are off', () => {
  it('answers 403 access_denied, and 201 again once one is on', async () => {
    await setSwitch(service.db, 'rest_api', false);
    await setSwitch(service.db, 'mcp', false);
    const refused = await register({ redirect_uris: ['https://a.example/cb'] });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe('access_denied');
    await setSwitch(service.db, 'mcp', true);
    expect((await register({ redirect_uris: ['https://a.example/cb'] })).status).toBe(201);
    await setSwitch(service.db, 'rest_api', true);
  });
});

describe('spec 5.2: unused registrations may be removed after thirty days', () => {
  it('removes a client with no connection and no pending code, then the client is unknown', async () => {
    const client = (await register({ redirect_uris: ['https://a.example/cb'] })).json;
    expect(await removeUnusedClients(service.db, new Date())).toBe(0);
    const later = new Date(Date.now() + 31 * 24 * 3600 * 1000);
    expect(await removeUnusedClients(service.db, later)).toBeGreaterThan(0);
    const token = await send(service, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: 'svc_ort_x', client_id: client.client_id },
    });
    expect(token.status).toBe(401);
    expect(token.json.error).toBe('invalid_client');
  });
});

describe('housekeeping: expired records are forgotten', () => {
  it('removes expired web sessions and keeps live ones', async () => {
    const count = async (table: 'web_sessions' | 'oauth_codes') =>
      (
        await service.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    await loggedIn(service);
    expect(Number(await count('web_sessions'))).toBeGreaterThan(0);
    await removeExpiredRecords(service.db, new Date());
    expect(Number(await count('web_sessions'))).toBeGreaterThan(0);
    await removeExpiredRecords(service.db, new Date(Date.now() + 13 * 3600 * 1000));
    expect(Number(await count('web_sessions'))).toBe(0);
  });
});
