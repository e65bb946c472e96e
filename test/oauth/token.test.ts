import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import {
  authorizeUrl,
  exchange,
  formFields,
  loggedIn,
  me,
  newAddress,
  obtainCode,
  registerClient,
  send,
  type Browser,
  type RegisteredTestClient,
} from './support.ts';

const W = 'https://acme.example.test';
let service: TestService;
let browser: Browser;
let PUB: RegisteredTestClient;
let EVIL: RegisteredTestClient;
let CONF: RegisteredTestClient;
let offset = 0;

beforeAll(async () => {
  service = await startTestService({ publicUrl: W, now: () => new Date(Date.now() + offset) });
  PUB = await registerClient(service, { client_name: 'Public agent' });
  EVIL = await registerClient(service, { client_name: 'Evil agent' });
  CONF = await registerClient(service, {
    client_name: 'Server app',
    redirect_uris: ['https://app.example.org/cb'],
    token_endpoint_auth_method: 'client_secret_basic',
  });
  browser = await loggedIn(service);
});
afterAll(async () => service?.close());

const code = (options: Parameters<typeof obtainCode>[1] = {}) => obtainCode(service, { client: PUB, browser, ...options });
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function expectOAuthError(response: { status: number; json: any; headers: Record<string, unknown> }, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(Object.keys(response.json).sort()).toEqual(['error', 'error_description']);
  expect(response.json.error).toBe(error);
  expect(response.json.error_description).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/);
  expect(response.headers['cache-control']).toBe('no-store');
}

describe('CODE-1: a code is exchanged for a token pair', () => {
  it('answers the pair with no-store and no cookie', async () => {
    const flow = await code({ scope: 'tickets:read' });
    const response = await exchange(service, flow, {}, { headers: { cookie: browser.cookieHeader() } });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(Object.keys(response.json).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(response.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'tickets:read' });
    expect(response.json.access_token).toMatch(/^svc_oat_[A-Za-z0-9_-]{43}$/);
    expect(response.json.refresh_token).toMatch(/^svc_ort_[A-Za-z0-9_-]{43}$/);
    const who = await me(service, response.json.access_token);
    expect(who.json).toMatchObject({ agent: { name: 'Public agent', access: 'read' } });
  });

  it('takes a JSON body as well as a form (spec 5.2)', async () => {
    const flow = await code();
    const response = await send(service, 'POST', '/oauth/token', {
      json: {
        grant_type: 'authorization_code',
        code: flow.code,
        code_verifier: flow.pkce.verifier,
        client_id: PUB.client_id,
        redirect_uri: flow.redirectUri,
      },
    });
    expect(response.status).toBe(200);
    expect(response.json.scope).toBe('tickets:read tickets:write');
  });
});

describe('CODE-2: a valid replay of a code revokes what it issued', () => {
  it('refuses the second exchange and kills the first pair', async () => {
    const flow = await code();
    const first = await exchange(service, flow);
    expect(first.status).toBe(200);
    expectOAuthError(await exchange(service, flow), 400, 'invalid_grant');
    expect((await me(service, first.json.access_token)).status).toBe(401);
    const refreshed = await send(service, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: first.json.refresh_token, client_id: PUB.client_id },
    });
    expectOAuthError(refreshed, 400, 'invalid_grant');
  });
});

describe('CODE-3: an invalid replay revokes nothing', () => {
  it('a replay with a wrong verifier or another client leaves the pair working', async () => {
    const flow = await code();
    const first = await exchange(service, flow);
    expectOAuthError(await exchange(service, flow, { code_verifier: 'x'.repeat(43) }), 400, 'invalid_grant');
    expectOAuthError(await exchange(service, flow, { client_id: EVIL.client_id }), 400, 'invalid_grant');
    expect((await me(service, first.json.access_token)).status).toBe(200);
  });
});

describe('CODE-4: concurrent exchanges of one code: exactly one succeeds', () => {
  it('ten at once give one 200 and nine invalid_grant, and the winner ends up revoked', async () => {
    const flow = await code();
    const answers = await Promise.all(Array.from({ length: 10 }, () => exchange(service, flow)));
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((a) => a.status !== 200)) expect(loser.json.error).toBe('invalid_grant');
    expect((await me(service, winners[0]!.json.access_token)).status).toBe(401);
  });
});

describe('CODE-5: a code works for one minute', () => {
  it('refuses it at t+61 s', async () => {
    const flow = await code();
    offset = 61_000;
    try {
      expectOAuthError(await exchange(service, flow), 400, 'invalid_grant');
    } finally {
      offset = 0;
    }
  });
});

describe("CODE-6: another client's code is refused and stays usable", () => {
  it('EVIL and CONF cannot redeem PUB’s code; PUB still can', async () => {
    const flow = await code();
    expectOAuthError(await exchange(service, flow, { client_id: EVIL.client_id }), 400, 'invalid_grant');
    const asConf = await exchange(
      service,
      flow,
      { client_id: CONF.client_id },
      { headers: { authorization: basic(CONF.client_id, CONF.client_secret!) } },
    );
    expect(asConf.status).toBe(400);
    expect(asConf.json.error).toBe('invalid_grant');
    expect((await exchange(service, flow)).status).toBe(200);
  });
});

describe('CODE-7: PKCE verification', () => {
  it('wrong or missing verifier is invalid_grant; a malformed one invalid_request', async () => {
    const flow = await code();
    expectOAuthError(await exchange(service, flow, { code_verifier: 'A'.repeat(43) }), 400, 'invalid_grant');
    expectOAuthError(await exchange(service, { ...flow, pkce: { ...flow.pkce, verifier: '' } }), 400, 'invalid_grant');
    for (const verifier of ['A'.repeat(42), 'A'.repeat(129), `${'A'.repeat(42)}+`, `${'A'.repeat(42)}/`]) {
      expectOAuthError(await exchange(service, flow, { code_verifier: verifier }), 400, 'invalid_request');
    }
    expect((await exchange(service, flow)).status).toBe(200);
  });
});

describe('CODE-8: no code exists without a challenge', () => {
  it('oauth_codes.code_challenge is NOT NULL', async () => {
    const column = await sql<{ is_nullable: string }>`
      select is_nullable from information_schema.columns where table_name = 'oauth_codes' and column_name = 'code_challenge'`.execute(
      service.db,
    );
    expect(column.rows[0]?.is_nullable).toBe('NO');
  });
});

describe('CODE-9: redirect_uri at the token endpoint', () => {
  it('a different one is invalid_grant; leaving it out is accepted', async () => {
    const flow = await code({ redirectUri: 'http://127.0.0.1:5000/callback' });
    expectOAuthError(await exchange(service, flow, { redirect_uri: 'http://127.0.0.1:5001/callback' }), 400, 'invalid_grant');
    const { redirect_uri: _omitted, ...rest } = {
      grant_type: 'authorization_code',
      code: flow.code,
      code_verifier: flow.pkce.verifier,
      client_id: PUB.client_id,
      redirect_uri: '',
    };
    expect((await send(service, 'POST', '/oauth/token', { form: rest })).status).toBe(200);
  });
});

describe('CODE-10: resource at the token endpoint', () => {
  it('must equal the authorized one', async () => {
    const flow = await code({ resource: `${W}/mcp` });
    expectOAuthError(await exchange(service, flow, { resource: `${W}/api` }), 400, 'invalid_target');
    expectOAuthError(await exchange(service, flow, { resource: 'https://evil.test/mcp' }), 400, 'invalid_target');
    expect((await exchange(service, flow, { resource: `${W}/mcp` })).status).toBe(200);
  });
});

describe('CODE-12: confidential client authentication', () => {
  it('wrong secret over Basic is 401 with WWW-Authenticate: Basic; no credentials and the wrong method are 401', async () => {
    const flow = await code({ client: CONF, redirectUri: 'https://app.example.org/cb' });
    const wrong = await exchange(service, flow, {}, { headers: { authorization: basic(CONF.client_id, 'svc_cs_wrong') } });
    expectOAuthError(wrong, 401, 'invalid_client');
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
    expectOAuthError(await exchange(service, flow), 401, 'invalid_client');
    expectOAuthError(await exchange(service, flow, { client_secret: CONF.client_secret! }), 401, 'invalid_client');
    const both = await exchange(
      service,
      flow,
      { client_secret: CONF.client_secret! },
      { headers: { authorization: basic(CONF.client_id, CONF.client_secret!) } },
    );
    expectOAuthError(both, 400, 'invalid_request');
    const inQuery = await send(service, 'POST', `/oauth/token?client_secret=${CONF.client_secret}`, {
      form: { grant_type: 'authorization_code', code: flow.code, code_verifier: flow.pkce.verifier, client_id: CONF.client_id },
    });
    expectOAuthError(inQuery, 400, 'invalid_request');
    expect((await exchange(service, flow, {}, { headers: { authorization: basic(CONF.client_id, CONF.client_secret!) } })).status).toBe(
      200,
    );
  });

  it('an unknown client is 401 invalid_client', async () => {
    expectOAuthError(
      await send(service, 'POST', '/oauth/token', { form: { grant_type: 'authorization_code', code: 'x', client_id: 'svc_client_nope' } }),
      401,
      'invalid_client',
    );
  });
});

describe('CODE-13 and CODE-14: parameters come once, from the body', () => {
  it('refuses parameters in the query, a GET, and repeated parameters', async () => {
    const flow = await code();
    const query = new URLSearchParams({
      grant_type: 'authorization_code',
      code: flow.code,
      code_verifier: flow.pkce.verifier,
      client_id: PUB.client_id,
    });
    expectOAuthError(await send(service, 'POST', `/oauth/token?${query}`), 400, 'invalid_request');
    expect((await send(service, 'GET', '/oauth/token')).status).toBeGreaterThanOrEqual(400);
    expectOAuthError(await exchange(service, flow, { code: [flow.code, flow.code] as unknown as string }), 400, 'invalid_request');
    expectOAuthError(
      await send(service, 'POST', '/oauth/token', { body: '{not json', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request',
    );
  });
});

describe('CODE-15: grant types', () => {
  it('password, client_credentials and implicit are unsupported_grant_type', async () => {
    for (const grantType of ['password', 'client_credentials', 'implicit']) {
      expectOAuthError(
        await send(service, 'POST', '/oauth/token', { form: { grant_type: grantType, client_id: PUB.client_id } }),
        400,
        'unsupported_grant_type',
      );
    }
  });

  it('a grant the client did not register is unauthorized_client', async () => {
    const codeOnly = await registerClient(service, { grant_types: ['authorization_code'] });
    const response = await send(service, 'POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: 'svc_ort_x', client_id: codeOnly.client_id },
    });
    expectOAuthError(response, 400, 'unauthorized_client');
  });
});

describe('CODE-17: 60 token requests a minute per address', () => {
  it('answers the 61st with 429 slow_down and Retry-After', async () => {
    const address = newAddress();
    const ask = () => send(service, 'POST', '/oauth/token', { form: { grant_type: 'password', client_id: PUB.client_id }, address });
    for (let i = 0; i < 60; i++) expect((await ask()).status).toBe(400);
    const refused = await ask();
    expectOAuthError(refused, 429, 'slow_down');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('spec 5.2: invalid_grant when the member can no longer use agents, or both ways in are off', () => {
  it('refuses the exchange while the REST API and MCP are both off', async () => {
    const flow = await code();
    await setSwitch(service.db, 'rest_api', false);
    await setSwitch(service.db, 'mcp', false);
    try {
      expectOAuthError(await exchange(service, flow), 400, 'invalid_grant');
    } finally {
      await setSwitch(service.db, 'rest_api', true);
      await setSwitch(service.db, 'mcp', true);
    }
    expect((await exchange(service, flow)).status).toBe(200);
  });
});

describe('STORE-1: only digests are stored', () => {
  it('no issued token, code or secret appears in any table', async () => {
    const flow = await code({ client: CONF, redirectUri: 'https://app.example.org/cb' });
    const pair = await exchange(service, flow, {}, { headers: { authorization: basic(CONF.client_id, CONF.client_secret!) } });
    const secrets = [flow.code, pair.json.access_token, pair.json.refresh_token, CONF.client_secret!];
    const tables = ['oauth_clients', 'oauth_grants', 'oauth_codes', 'oauth_consents', 'tokens', 'web_sessions'];
    for (const table of tables) {
      const dump = JSON.stringify((await sql`select * from ${sql.table(table)}`.execute(service.db)).rows);
      for (const secret of secrets) {
        expect(dump).not.toContain(secret);
        expect(dump).not.toContain(secret.replace(/^svc_[a-z]+_/, ''));
      }
    }
  });
});

describe('UI-16: a pending consent request expires after ten minutes', () => {
  it('answers an error page, not a redirect, past its lifetime', async () => {
    const page = await browser.get(authorizeUrl({ client: PUB }));
    const fields = formFields(page.text, '/oauth/authorize');
    offset = 11 * 60_000;
    try {
      const late = await browser.post('/oauth/authorize', { ...fields, decision: 'approve' });
      expect(late.status).toBe(400);
      expect(late.location).toBeUndefined();
    } finally {
      offset = 0;
    }
  });
});
