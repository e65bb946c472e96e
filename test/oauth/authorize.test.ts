import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import {
  authorizeUrl,
  Browser,
  callbackParams,
  consent,
  exchange,
  formFields,
  loggedIn,
  pkce,
  registerClient,
  send,
  setCookieLines,
  type RegisteredTestClient,
} from './support.ts';

const W = 'https://acme.example.test';
let service: TestService;
let browser: Browser;
let PUB: RegisteredTestClient;
let CONF: RegisteredTestClient;
let TWO: RegisteredTestClient;

beforeAll(async () => {
  service = await startTestService({ publicUrl: W });
  PUB = await registerClient(service, { client_name: 'Public agent' });
  CONF = await registerClient(service, {
    client_name: 'Server app',
    redirect_uris: ['https://app.example.org/cb', 'https://app.example.org/cb?tenant=1'],
    token_endpoint_auth_method: 'client_secret_basic',
  });
  TWO = await registerClient(service, { redirect_uris: ['https://two.example.org/a', 'https://two.example.org/b'] });
  browser = await loggedIn(service);
});
afterAll(async () => service?.close());

/** Opens an authorization URL in the logged-in browser. */
const open = (url: string) => browser.get(url);

function expectErrorPage(response: { status: number; location: string | undefined; headers: Record<string, unknown> }) {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  expect(response.location).toBeUndefined();
  expect(String(response.headers['content-type'])).toMatch(/^text\/html/);
}

function expectRedirectError(response: { status: number; location: string | undefined }, redirect: string, error: string, state?: string) {
  expect(response.status).toBe(303);
  expect(response.location?.startsWith(redirect)).toBe(true);
  const params = callbackParams(response.location);
  expect(params.get('error')).toBe(error);
  expect(params.get('error_description')).toBeTruthy();
  expect(params.get('iss')).toBe(W);
  expect(params.get('code')).toBeNull();
  if (state !== undefined) expect(params.get('state')).toBe(state);
}

describe('decision 1: an unknown client or unregistered redirect is an error page, never a redirect', () => {
  it('unknown or missing client_id', async () => {
    expectErrorPage(await open(authorizeUrl({ client: { client_id: 'svc_client_nope', redirect_uris: ['http://127.0.0.1/callback'] } })));
    expectErrorPage(await open('/oauth/authorize?response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback'));
  });

  it.each([
    ['http://127.0.0.1/callback/', 'PUB'],
    ['http://127.0.0.1/Callback', 'PUB'],
    ['http://127.0.0.1/callback?x=1', 'PUB'],
    ['http://127.0.0.1/callback#frag', 'PUB'],
    ['HTTP://127.0.0.1/callback', 'PUB'],
    ['http://localhost/callback', 'PUB'],
    ['http://127.0.0.1:53682/other', 'PUB'],
    ['http://localhost:53682/callback', 'PUB'],
    ['http://127.0.0.1:53682/callback?x=1', 'PUB'],
    ['https://app.example.org:443/cb', 'CONF'],
    ['https://app.example.org:8443/cb', 'CONF'],
    ['http://app.example.org/cb', 'CONF'],
    ['https://app.example.org.evil.test/cb', 'CONF'],
    ['https://app.example.org@evil.test/cb', 'CONF'],
    ['https://xn--pp-7ba.example.org/cb', 'CONF'],
  ] as const)('AUTHZ-2/3: redirect_uri %s is not registered', async (redirectUri, clientRef) => {
    expectErrorPage(await open(authorizeUrl({ client: clientRef === 'PUB' ? PUB : CONF, redirectUri })));
  });

  it('AUTHZ-4: an omitted redirect_uri needs exactly one registered', async () => {
    const url = authorizeUrl({ client: TWO }).replace(/&redirect_uri=[^&]*/, '');
    expectErrorPage(await open(url));
    const single = await open(authorizeUrl({ client: PUB }).replace(/&redirect_uri=[^&]*/, ''));
    expect(single.status).toBe(200);
  });

  it('AUTHZ-5: a repeated client_id or redirect_uri is an error page', async () => {
    expectErrorPage(await open(`${authorizeUrl({ client: PUB })}&client_id=${PUB.client_id}`));
    expectErrorPage(await open(`${authorizeUrl({ client: PUB })}&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback`));
  });

  it('UI-13: a bad address stored by any other route is never used', async () => {
    await service.db
      .updateTable('oauth_clients')
      .set({ redirect_uris: ['javascript:alert(1)'] })
      .where('client_id', '=', TWO.client_id)
      .execute();
    expectErrorPage(await open(authorizeUrl({ client: TWO, redirectUri: 'javascript:alert(1)' })));
    expectErrorPage(await open(authorizeUrl({ client: TWO }).replace(/&redirect_uri=[^&]*/, '')));
  });
});

describe('AUTHZ-3: loopback redirects may use any port', () => {
  it('delivers the code to the port asked for', async () => {
    const verifier = pkce();
    const answer = await consent(browser, authorizeUrl({ client: PUB, pkce: verifier, redirectUri: 'http://127.0.0.1:53682/callback' }));
    expect(answer.location?.startsWith('http://127.0.0.1:53682/callback?')).toBe(true);
    const code = callbackParams(answer.location).get('code')!;
    const token = await exchange(service, { client: PUB, pkce: verifier, code, redirectUri: 'http://127.0.0.1:53682/callback' });
    expect(token.status).toBe(200);
  });
});

describe('spec 5.2: other problems go back to the redirect URI with error, state and iss', () => {
  const redirect = 'http://127.0.0.1/callback';
  it('AUTHZ-6: response_type', async () => {
    for (const type of ['token', 'id_token', 'code token', 'none']) {
      expectRedirectError(
        await open(authorizeUrl({ client: PUB, state: 's1', extra: { response_type: type } })),
        redirect,
        'unsupported_response_type',
        's1',
      );
    }
    expectRedirectError(
      await open(authorizeUrl({ client: PUB, state: 's1' }).replace('response_type=code&', '')),
      redirect,
      'invalid_request',
      's1',
    );
  });

  it('AUTHZ-7: PKCE is required, S256 only, 43 base64url characters', async () => {
    const base = authorizeUrl({ client: PUB, state: 's2' });
    expectRedirectError(await open(base.replace(/&code_challenge=[^&]*/, '')), redirect, 'invalid_request', 's2');
    expectRedirectError(await open(base.replace(/&code_challenge=[^&]*/, '&code_challenge=')), redirect, 'invalid_request', 's2');
    expectRedirectError(
      await open(base.replace('code_challenge_method=S256', 'code_challenge_method=plain')),
      redirect,
      'invalid_request',
      's2',
    );
    expectRedirectError(await open(base.replace('&code_challenge_method=S256', '')), redirect, 'invalid_request', 's2');
    expectRedirectError(await open(base.replace(/&code_challenge=[^&]*/, '&code_challenge=short')), redirect, 'invalid_request', 's2');
  });

  it('AUTHZ-5: a repeated code_challenge or scope is invalid_request', async () => {
    const base = authorizeUrl({ client: PUB, state: 's3', scope: 'tickets:read' });
    expectRedirectError(await open(`${base}&code_challenge=${pkce().challenge}`), redirect, 'invalid_request', 's3');
    expectRedirectError(await open(`${base}&scope=tickets:read`), redirect, 'invalid_request', 's3');
  });

  it('AUTHZ-8: unknown scope is invalid_scope; read, read+write in any order, and write alone are accepted', async () => {
    expectRedirectError(await open(authorizeUrl({ client: PUB, state: 's4', scope: 'admin' })), redirect, 'invalid_scope', 's4');
    expectRedirectError(
      await open(authorizeUrl({ client: PUB, state: 's4', scope: 'tickets:read admin' })),
      redirect,
      'invalid_scope',
      's4',
    );
    for (const scope of ['tickets:read', 'tickets:read tickets:write', 'tickets:write tickets:read', 'tickets:write']) {
      expect((await open(authorizeUrl({ client: PUB, scope }))).status).toBe(200);
    }
  });

  it('RES-1: a resource elsewhere is invalid_target; the workspace itself, /mcp and upper-case host are accepted', async () => {
    for (const resource of [
      'https://evil.test/mcp',
      'https://beta.example.test/mcp',
      'http://acme.example.test/mcp',
      'https://acme.example.test/mcp#x',
      'https://acme.example.test.evil.test/mcp',
      'https://acme.example.test@evil.test/mcp',
      '/mcp',
      'urn:x:y',
      'https://acme.example.test:444/mcp',
      'https://acme.example.test/mcp?x=1',
    ]) {
      expectRedirectError(await open(authorizeUrl({ client: PUB, state: 's5', resource })), redirect, 'invalid_target', 's5');
    }
    for (const resource of [`${W}/mcp`, W, `${W}/api/v1`, 'HTTPS://ACME.example.test/mcp', `${W}/mcp/`]) {
      expect((await open(authorizeUrl({ client: PUB, resource }))).status, resource).toBe(200);
    }
  });

  it('RES-2: a repeated resource is refused', async () => {
    const response = await open(
      `${authorizeUrl({ client: PUB, state: 's6', resource: `${W}/mcp` })}&resource=${encodeURIComponent(`${W}/api`)}`,
    );
    expect(response.status).toBe(303);
    expect(callbackParams(response.location).get('error')).toMatch(/invalid_target|invalid_request/);
  });

  it('AUTHZ-10: state comes back byte-identical; an empty state is absent; a registered query is kept', async () => {
    const state = 'a&b=c ✓';
    const error = await open(authorizeUrl({ client: PUB, state, scope: 'bogus' }));
    expect(callbackParams(error.location).get('state')).toBe(state);
    const success = await consent(browser, authorizeUrl({ client: PUB, state }));
    const params = callbackParams(success.location);
    expect(params.get('state')).toBe(state);
    expect(params.getAll('code')).toHaveLength(1);
    expect(params.getAll('iss')).toEqual([W]);
    const empty = await open(authorizeUrl({ client: PUB, state: '', scope: 'bogus' }));
    expect(callbackParams(empty.location).has('state')).toBe(false);
    const withQuery = await consent(browser, authorizeUrl({ client: CONF, redirectUri: 'https://app.example.org/cb?tenant=1' }));
    expect(withQuery.location).toMatch(/^https:\/\/app\.example\.org\/cb\?tenant=1&code=/);
  });
});

describe('AUTHZ-9: nothing is redirected to the client before the member has logged in', () => {
  it('shows the log-in page for a bad request, and the redirect error after log-in', async () => {
    const stranger = new Browser(service);
    const url = authorizeUrl({ client: PUB, state: 'st', scope: 'bogus' });
    const first = await stranger.get(url);
    expect(first.status).toBe(200);
    expect(first.location).toBeUndefined();
    expect(first.text).toContain('action="/login"');
    const login = await stranger.post('/login', {
      ...formFields(first.text, '/login'),
      email: 'lee@example.com',
      password: 'lee-password',
    });
    expect(login.status).toBe(303);
    expect(login.location).toBe(url);
    expectRedirectError(await stranger.get(url), 'http://127.0.0.1/callback', 'invalid_scope', 'st');
  });
});

describe('AUTHZ-11: iss is on every authorization response', () => {
  it('success and decline carry iss equal to the issuer', async () => {
    const success = await consent(browser, authorizeUrl({ client: PUB }));
    expect(callbackParams(success.location).get('iss')).toBe(W);
    const denied = await consent(browser, authorizeUrl({ client: PUB, state: 'no' }), 'deny');
    expectRedirectError(denied, 'http://127.0.0.1/callback', 'access_denied', 'no');
  });
});

describe('AUTHZ-12: no CORS on /oauth/authorize', () => {
  it('sends no Access-Control-Allow-Origin', async () => {
    const get = await browser.get(authorizeUrl({ client: PUB }), { headers: { origin: 'https://evil.test' } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    const options = await send(service, 'OPTIONS', '/oauth/authorize', {
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(options.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('AUTHZ-13 and UI-14: consent is asked every time, whatever the parameters', () => {
  it('shows the consent page again for prompt=none after an approval', async () => {
    await consent(browser, authorizeUrl({ client: PUB }));
    const again = await open(authorizeUrl({ client: PUB, extra: { prompt: 'none', max_age: '0', nonce: 'n' } }));
    expect(again.status).toBe(200);
    expect(again.text).toContain('action="/oauth/authorize"');
  });
});

describe('UI-3: the consent answer needs a CSRF token bound to the session and the request, once', () => {
  it('refuses a missing or foreign token, a foreign origin, another member and a replay', async () => {
    const page = await open(authorizeUrl({ client: PUB }));
    const fields = formFields(page.text, '/oauth/authorize');
    const missing = await browser.post('/oauth/authorize', { consent: fields.consent!, decision: 'approve' });
    expect(missing.status).toBe(403);
    const other = await loggedIn(service, 'ada');
    const otherPage = await other.get(authorizeUrl({ client: PUB }));
    const otherFields = formFields(otherPage.text, '/oauth/authorize');
    expect(
      (await browser.post('/oauth/authorize', { consent: fields.consent!, csrf: otherFields.csrf!, decision: 'approve' })).status,
    ).toBe(403);
    expect((await other.post('/oauth/authorize', { ...fields, decision: 'approve' })).status).toBe(403);
    expect(
      (await browser.post('/oauth/authorize', { ...fields, decision: 'approve' }, { headers: { origin: 'https://evil.test' } })).status,
    ).toBe(403);
    const first = await browser.post('/oauth/authorize', { ...fields, decision: 'approve' });
    expect(first.status).toBe(303);
    const replay = await browser.post('/oauth/authorize', { ...fields, decision: 'approve' });
    expect(replay.status).toBe(400);
    expect(replay.location).toBeUndefined();
  });
});

describe('UI-4: the code is made from the stored request, not from form fields', () => {
  it('ignores tampered hidden fields', async () => {
    const verifier = pkce();
    const page = await open(authorizeUrl({ client: PUB, pkce: verifier }));
    const fields = formFields(page.text, '/oauth/authorize');
    const answer = await browser.post('/oauth/authorize', {
      ...fields,
      decision: 'approve',
      redirect_uri: 'https://evil.test/cb',
      client_id: CONF.client_id,
      code_challenge: pkce().challenge,
    });
    expect(answer.location?.startsWith('http://127.0.0.1/callback?')).toBe(true);
    const code = callbackParams(answer.location).get('code')!;
    expect((await exchange(service, { client: PUB, pkce: verifier, code, redirectUri: 'http://127.0.0.1/callback' })).status).toBe(200);
  });
});

describe('UI-5: the member may grant less than asked, never more', () => {
  it('read chosen for a read+write request gives scope tickets:read', async () => {
    const verifier = pkce();
    const answer = await consent(
      browser,
      authorizeUrl({ client: PUB, pkce: verifier, scope: 'tickets:read tickets:write' }),
      'approve',
      'read',
    );
    const token = await exchange(service, {
      client: PUB,
      pkce: verifier,
      code: callbackParams(answer.location).get('code')!,
      redirectUri: 'http://127.0.0.1/callback',
    });
    expect(token.json.scope).toBe('tickets:read');
  });

  it('offers only Read when only read was asked, and clamps a forged write', async () => {
    const verifier = pkce();
    const page = await open(authorizeUrl({ client: PUB, pkce: verifier, scope: 'tickets:read' }));
    expect(page.text).not.toContain('value="write"');
    const answer = await browser.post('/oauth/authorize', {
      ...formFields(page.text, '/oauth/authorize'),
      decision: 'approve',
      access: 'write',
    });
    const token = await exchange(service, {
      client: PUB,
      pkce: verifier,
      code: callbackParams(answer.location).get('code')!,
      redirectUri: 'http://127.0.0.1/callback',
    });
    expect(token.json.scope).toBe('tickets:read');
  });
});

describe('UI-7, UI-9, UI-10, UI-11: page headers and 303 after POST', () => {
  it('the consent, log-in and error pages forbid framing, referrers and caching', async () => {
    const pages = [
      await open(authorizeUrl({ client: PUB })),
      await new Browser(service).get(authorizeUrl({ client: PUB })),
      await open(authorizeUrl({ client: { client_id: 'svc_client_nope', redirect_uris: ['http://127.0.0.1/callback'] } })),
    ];
    for (const page of pages) {
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).not.toContain('form-action');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).not.toMatch(/<script|<img|https?:\/\/(?!acme\.example\.test)[a-z]/i);
    }
  });

  it('the redirect carrying the code is 303 and not cached', async () => {
    const answer = await consent(browser, authorizeUrl({ client: PUB }));
    expect(answer.status).toBe(303);
    expect(answer.headers['cache-control']).toBe('no-store');
  });
});

describe('UI-12: the consent page shows the escaped claimed name, the return host, scope and member', () => {
  it('escapes the name and names the host and the workspace', async () => {
    const evil = await registerClient(service, {
      client_name: '<img src=x onerror=alert(1)>',
      redirect_uris: ['https://app.example.org/cb'],
    });
    const page = await open(authorizeUrl({ client: evil, resource: `${W}/mcp` }));
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('app.example.org');
    expect(page.text).toMatch(/name given by the application itself/);
    expect(page.text).toContain('Lee Lead');
    expect(page.text).toContain('Test workspace');
    expect(page.text).toContain('MCP server');
    expect(page.text).not.toContain('loopback-note');
    expect((await open(authorizeUrl({ client: PUB }))).text).toContain('id="loopback-note"');
    const scheme = await registerClient(service, {
      client_name: 'Cursor',
      redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'],
    });
    expect((await open(authorizeUrl({ client: scheme }))).text).toContain('cursor:');
  });
});

describe('UI-15: cookie attributes on an https workspace', () => {
  it('session cookies are __Host-, Secure, HttpOnly, SameSite=Lax, Path=/ without Domain', async () => {
    const fresh = new Browser(service);
    const page = await fresh.get('/login');
    const answer = await fresh.post('/login', { ...formFields(page.text, '/login'), email: 'lee@example.com', password: 'lee-password' });
    const cookies = setCookieLines(answer);
    const session = cookies.find((c) => c.startsWith('__Host-atrium_session='));
    expect(session).toBeDefined();
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).toMatch(/; SameSite=Lax/i);
    expect(session).toMatch(/; Path=\//i);
    expect(session).not.toMatch(/Domain=/i);
  });
});

describe('UI-16: a pending request is bound to the browser that started it', () => {
  it('refuses the answer from another browser of the same member', async () => {
    const page = await open(authorizeUrl({ client: PUB }));
    const second = await loggedIn(service, 'lee');
    expect((await second.post('/oauth/authorize', { ...formFields(page.text, '/oauth/authorize'), decision: 'approve' })).status).toBe(403);
  });
});

describe('UI-3: Origin null (what browsers send under no-referrer) is left to the CSRF token', () => {
  it('accepts the answer with Origin: null and a valid token, refuses it without one', async () => {
    const page = await open(authorizeUrl({ client: PUB }));
    const fields = formFields(page.text, '/oauth/authorize');
    expect(
      (await browser.post('/oauth/authorize', { consent: fields.consent!, decision: 'approve' }, { headers: { origin: 'null' } })).status,
    ).toBe(403);
    expect((await browser.post('/oauth/authorize', { ...fields, decision: 'approve' }, { headers: { origin: 'null' } })).status).toBe(303);
  });
});

describe('spec 5.2: a client registered for tickets:read cannot ask for more', () => {
  it('asks read when scope is left out, and refuses write with invalid_scope', async () => {
    const reader = await registerClient(service, { client_name: 'Reader', scope: 'tickets:read' });
    const page = await open(authorizeUrl({ client: reader }));
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('value="write"');
    expectRedirectError(
      await open(authorizeUrl({ client: reader, scope: 'tickets:read tickets:write', state: 'r' })),
      'http://127.0.0.1/callback',
      'invalid_scope',
      'r',
    );
  });
});
