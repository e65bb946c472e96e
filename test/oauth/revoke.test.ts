import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import {
  exchange,
  loggedIn,
  me,
  obtainCode,
  refreshWith,
  registerClient,
  send,
  type Browser,
  type RegisteredTestClient,
} from './support.ts';

let service: TestService;
let browser: Browser;
let PUB: RegisteredTestClient;
let EVIL: RegisteredTestClient;
let CONF: RegisteredTestClient;

beforeAll(async () => {
  service = await startTestService({ publicUrl: 'https://acme.example.test' });
  PUB = await registerClient(service, { client_name: 'Public agent' });
  EVIL = await registerClient(service, { client_name: 'Evil agent' });
  CONF = await registerClient(service, {
    redirect_uris: ['https://app.example.org/cb'],
    token_endpoint_auth_method: 'client_secret_basic',
  });
  browser = await loggedIn(service);
});
afterAll(async () => service?.close());

async function connect(): Promise<{ access_token: string; refresh_token: string }> {
  const response = await exchange(service, await obtainCode(service, { client: PUB, browser }));
  return response.json;
}

const revoke = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  send(service, 'POST', '/oauth/revoke', { form, headers });
const works = async (token: string) => (await me(service, token)).status === 200;

function expectEmpty200(response: { status: number; text: string }) {
  expect(response.status).toBe(200);
  expect(response.text).toBe('');
}

describe('REV-1: revoking the refresh token ends the connection', () => {
  it('answers 200 with an empty body; both tokens are dead', async () => {
    const pair = await connect();
    expectEmpty200(await revoke({ token: pair.refresh_token, client_id: PUB.client_id }));
    expect(await works(pair.access_token)).toBe(false);
    expect((await refreshWith(service, PUB, pair.refresh_token)).json.error).toBe('invalid_grant');
  });
});

describe('REV-2 and decision 6: revoking the access token ends the connection too', () => {
  it('kills the access token and its refresh token', async () => {
    const pair = await connect();
    expectEmpty200(await revoke({ token: pair.access_token, client_id: PUB.client_id }));
    expect(await works(pair.access_token)).toBe(false);
    expect((await refreshWith(service, PUB, pair.refresh_token)).json.error).toBe('invalid_grant');
  });
});

describe('REV-3: worthless tokens are answered 200', () => {
  it('unknown, garbage and already revoked', async () => {
    const pair = await connect();
    await revoke({ token: pair.refresh_token, client_id: PUB.client_id });
    for (const token of ['svc_ort_xxx', 'garbage', pair.refresh_token, pair.access_token]) {
      expectEmpty200(await revoke({ token, client_id: PUB.client_id }));
    }
  });
});

describe("REV-4: another client's token is left alone, silently", () => {
  it('answers 200 and PUB can still refresh', async () => {
    const pair = await connect();
    expectEmpty200(await revoke({ token: pair.refresh_token, client_id: EVIL.client_id }));
    expect(await works(pair.access_token)).toBe(true);
    expect((await refreshWith(service, PUB, pair.refresh_token)).status).toBe(200);
  });
});

describe('REV-5: a wrong token_type_hint still finds the token', () => {
  it('revokes a refresh token hinted as an access token, and with an unknown hint', async () => {
    for (const hint of ['access_token', 'foo']) {
      const pair = await connect();
      expectEmpty200(await revoke({ token: pair.refresh_token, token_type_hint: hint, client_id: PUB.client_id }));
      expect(await works(pair.access_token)).toBe(false);
    }
  });
});

describe('REV-6: what always-200 does not cover', () => {
  it('a missing token is 400 invalid_request; bad client credentials 401 invalid_client', async () => {
    const missing = await revoke({ client_id: PUB.client_id });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('invalid_request');
    const bad = await revoke({ token: 'x' }, { authorization: `Basic ${Buffer.from(`${CONF.client_id}:wrong`).toString('base64')}` });
    expect(bad.status).toBe(401);
    expect(bad.json.error).toBe('invalid_client');
  });
});

describe('REV-7 and GEN-2: open CORS and no cookies on the machine endpoints', () => {
  it('answers any origin and never sets a cookie, even when a session cookie is sent', async () => {
    const pair = await connect();
    const answer = await send(service, 'POST', '/oauth/revoke', {
      form: { token: pair.refresh_token, client_id: PUB.client_id },
      headers: { origin: 'https://agent.example', cookie: browser.cookieHeader() },
    });
    expectEmpty200(answer);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['set-cookie']).toBeUndefined();
    const register = await send(service, 'POST', '/oauth/register', {
      json: { redirect_uris: ['https://a.example/cb'] },
      headers: { cookie: browser.cookieHeader() },
    });
    expect(register.status).toBe(201);
    expect(register.headers['set-cookie']).toBeUndefined();
    const api = await send(service, 'GET', '/api/v1/me', { headers: { cookie: browser.cookieHeader() } });
    expect(api.status).toBe(401);
    expect(api.headers['set-cookie']).toBeUndefined();
  });
});
