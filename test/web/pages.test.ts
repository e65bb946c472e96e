import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/core/settings.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import {
  authorizeUrl,
  Browser,
  consent,
  exchange,
  formFields,
  loggedIn,
  me,
  obtainCode,
  registerClient,
  send,
  setCookieLines,
  workspaceWithDevTwo,
} from '../oauth/support.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ workspace: workspaceWithDevTwo() });
});
afterAll(async () => service?.close());

function expectPageHeaders(page: { headers: Record<string, unknown> }) {
  expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
  expect(page.headers['x-frame-options']).toBe('DENY');
  expect(page.headers['referrer-policy']).toBe('no-referrer');
  expect(page.headers['cache-control']).toBe('no-store');
}

describe('pages: log in', () => {
  it('GET / sends a stranger to /login and shows a member their home page', async () => {
    const stranger = new Browser(service);
    expect((await stranger.get('/')).location).toBe('/login');
    const member = await loggedIn(service);
    const home = await member.get('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('href="/projects/CORE"');
  });

  it('UI-2: the log-in POST needs the CSRF token of this browser', async () => {
    const browser = new Browser(service);
    const page = await browser.get('/login');
    const fields = formFields(page.text, '/login');
    expect((await browser.post('/login', { email: 'lee@example.com', password: 'lee-password', return_to: '/agents' })).status).toBe(403);
    const other = new Browser(service);
    await other.get('/login');
    expect((await other.post('/login', { ...fields, email: 'lee@example.com', password: 'lee-password' })).status).toBe(403);
    expect(
      (
        await browser.post(
          '/login',
          { ...fields, email: 'lee@example.com', password: 'lee-password' },
          { headers: { origin: 'https://evil.test' } },
        )
      ).status,
    ).toBe(403);
  });

  it('UI-2: logging in gives a fresh session cookie and answers 303', async () => {
    const browser = new Browser(service);
    const page = await browser.get('/login');
    const before = [...browser.cookies.values()];
    const answer = await browser.post('/login', { ...formFields(page.text, '/login'), email: 'lee@example.com', password: 'lee-password' });
    expect(answer.status).toBe(303);
    const session = browser.cookies.get('atrium_session');
    expect(session).toBeDefined();
    expect(before).not.toContain(session);
    const cookie = setCookieLines(answer).find((line) => line.startsWith('atrium_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it.each(['https://evil.test', '//evil.test', '/\\evil.test'])('UI-2: return_to %s stays on this site', async (target) => {
    const browser = new Browser(service);
    const page = await browser.get(`/login?return_to=${encodeURIComponent(target)}`);
    const answer = await browser.post('/login', { ...formFields(page.text, '/login'), email: 'lee@example.com', password: 'lee-password' });
    expect(answer.location).toBe('/');
  });

  it('refuses a wrong password with 401 and slows an account after five failures', async () => {
    const tries = async (browser: Browser, password: string) => {
      const page = await browser.get('/login');
      return browser.post('/login', { ...formFields(page.text, '/login'), email: 'vic@example.com', password });
    };
    for (let i = 0; i < 5; i++) expect((await tries(new Browser(service), 'wrong-password')).status).toBe(401);
    const slowed = await tries(new Browser(service), 'another-password');
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('slows an address after twenty failures, whichever accounts it tries', async () => {
    const browser = new Browser(service);
    for (let i = 0; i < 20; i++) {
      const page = await browser.get('/login');
      await browser.post('/login', { ...formFields(page.text, '/login'), email: `nobody${i}@example.com`, password: 'x' });
    }
    const page = await browser.get('/login');
    const slowed = await browser.post('/login', { ...formFields(page.text, '/login'), email: 'lee@example.com', password: 'lee-password' });
    expect(slowed.status).toBe(429);
  });

  it('log out needs the CSRF token and ends the session', async () => {
    const browser = await loggedIn(service);
    const page = await browser.get('/agents');
    expect((await browser.post('/logout', {})).status).toBe(403);
    const out = await browser.post('/logout', formFields(page.text, '/logout'));
    expect(out.location).toBe('/login');
    expect((await browser.get('/agents')).location).toMatch(/^\/login/);
  });
});

describe('pages: headers and cookies (UI-7, UI-9, UI-10, spec 4.10)', () => {
  it('every page forbids framing, referrers and caching', async () => {
    const browser = await loggedIn(service, 'ada');
    for (const path of ['/agents', '/agents/activity', '/admin/settings']) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(200);
      expectPageHeaders(page);
    }
    expectPageHeaders(await new Browser(service).get('/login'));
  });

  it('no cookie is set on API, MCP, OAuth machine or well-known paths, and a session cookie opens nothing there', async () => {
    const browser = await loggedIn(service);
    for (const [method, path] of [
      ['GET', '/api/v1/me'],
      ['POST', '/mcp'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['POST', '/oauth/token'],
    ] as const) {
      const answer = await send(service, method, path, { headers: { cookie: browser.cookieHeader() } });
      expect(answer.headers['set-cookie'], path).toBeUndefined();
      if (path === '/api/v1/me' || path === '/mcp') expect(answer.status).toBe(401);
    }
  });
});

describe('pages: AI agents (spec 5.1)', () => {
  it('creates a personal token shown once, lists it, and revokes it at once', async () => {
    const browser = await loggedIn(service);
    const page = await browser.get('/agents');
    const posted = await browser.post('/agents/tokens', {
      ...formFields(page.text, '/agents/tokens'),
      name: 'Nightly <bot>',
      access: 'read',
      lifetime: '90',
    });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe('/agents');
    const created = await browser.get('/agents');
    const secret = /id="new-token">(svc_pat_[A-Za-z0-9_-]{43})</.exec(created.text)?.[1];
    expect(secret).toBeDefined();
    expect(created.text).toContain('Nightly &lt;bot&gt;');
    expect((await me(service, secret!)).json).toMatchObject({ agent: { name: 'Nightly <bot>', access: 'read' } });
    const listed = await browser.get('/agents');
    expect(listed.text).not.toContain(secret!);
    expect(listed.text).toMatch(/Nightly &lt;bot&gt;<\/td><td[^>]*>Read<\/td>/);
    const row = listed.text.slice(listed.text.indexOf('data-token="Nightly &lt;bot&gt;"'));
    const action = /action="(\/agents\/tokens\/[0-9a-f-]+\/revoke)"/.exec(row)![1]!;
    const revoked = await browser.post(action, formFields(row, action));
    expect(revoked.status).toBe(303);
    expect((await me(service, secret!)).status).toBe(401);
    const after = (await browser.get('/agents')).text;
    expect(after).not.toContain('data-token="Nightly');
    expect(after).toContain('Revoked “Nightly &lt;bot&gt;”.');
  });

  it('refuses a token without a name or with an unknown lifetime, and a form without CSRF', async () => {
    const browser = await loggedIn(service);
    const fields = formFields((await browser.get('/agents')).text, '/agents/tokens');
    expect((await browser.post('/agents/tokens', { ...fields, name: '', access: 'read', lifetime: '30' })).status).toBe(422);
    expect((await browser.post('/agents/tokens', { ...fields, name: 'x', access: 'read', lifetime: '7' })).status).toBe(422);
    expect((await browser.post('/agents/tokens', { name: 'x', access: 'read', lifetime: '30' })).status).toBe(403);
  });

  it('lists a connected application with its access and revokes the connection', async () => {
    const browser = await loggedIn(service);
    const client = await registerClient(service, { client_name: 'Connected App' });
    const pair = (await exchange(service, await obtainCode(service, { client, browser, access: 'read' }))).json;
    const page = await browser.get('/agents');
    expect(page.text).toMatch(/Connected App <span class="claim">[^<]*<\/span><\/td><td[^>]*>Read<\/td>/);
    const row = page.text.slice(page.text.indexOf('data-connection="Connected App"'));
    const action = /action="(\/agents\/connections\/[0-9a-f-]+\/revoke)"/.exec(row)![1]!;
    expect((await browser.post(action, formFields(row, action))).status).toBe(303);
    expect((await me(service, pair.access_token)).status).toBe(401);
    const after = (await browser.get('/agents')).text;
    expect(after).not.toContain('data-connection="Connected App"');
    expect(after).toContain('Revoked “Connected App”.');
  });

  it("a member cannot revoke another member's token", async () => {
    const victim = await service.token('ada@example.com', 'read', 'Ada tool');
    const browser = await loggedIn(service);
    const adaTokenId = (await service.db.selectFrom('tokens').select('id').where('name', '=', 'Ada tool').executeTakeFirstOrThrow()).id;
    const fields = formFields((await browser.get('/agents')).text, '/agents/tokens');
    await browser.post(`/agents/tokens/${adaTokenId}/revoke`, fields);
    expect((await me(service, victim)).status).toBe(200);
  });
});

describe('pages: what my agents did', () => {
  it("lists the member's changes made through tokens with the token's or application's name", async () => {
    const token = await service.token('lee@example.com', 'write', 'Release bot');
    const created = await send(service, 'POST', '/api/v1/tickets', {
      headers: { authorization: `Bearer ${token}` },
      json: { project: 'CORE', summary: 'Made by an agent' },
    });
    expect(created.status).toBe(201);
    const client = await registerClient(service, { client_name: 'Planner App' });
    const browser = await loggedIn(service);
    const pair = (await exchange(service, await obtainCode(service, { client, browser }))).json;
    expect(
      (
        await send(service, 'POST', '/api/v1/tickets', {
          headers: { authorization: `Bearer ${pair.access_token}` },
          json: { project: 'CORE', summary: 'Made by an app' },
        })
      ).status,
    ).toBe(201);
    const page = await browser.get('/agents/activity');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<td class="agent" data-label="Agent">Release bot</td>');
    expect(page.text).toContain('<td class="agent" data-label="Agent">Planner App</td>');
    const other = await loggedIn(service, 'ada');
    expect((await other.get('/agents/activity')).text).not.toContain('Release bot');
  });
});

describe("pages: the administrator's settings", () => {
  it('refuses members who are not administrators', async () => {
    const browser = await loggedIn(service);
    expect((await browser.get('/admin/settings')).status).toBe(403);
    expect((await browser.post('/admin/settings', { csrf: 'x', rest_api: 'on' })).status).toBe(403);
  });

  it('turns the MCP server and a module off and on with the form', async () => {
    const browser = await loggedIn(service, 'ada');
    const page = await browser.get('/admin/settings');
    const fields = formFields(page.text, '/admin/settings');
    expect((await browser.post('/admin/settings', { rest_api: 'on' })).status).toBe(403);
    const saved = await browser.post('/admin/settings', {
      ...fields,
      rest_api: 'on',
      sprints: 'on',
      helpdesk: 'on',
      knowledge: 'on',
      time: 'on',
      crm: 'on',
    });
    expect(saved.status).toBe(303);
    const settings = await readSettings(service.db);
    expect(settings.mcp).toBe(false);
    expect(settings.modules.boards).toBe(false);
    expect(settings.restApi).toBe(true);
    await browser.post('/admin/settings', {
      ...fields,
      rest_api: 'on',
      mcp: 'on',
      boards: 'on',
      sprints: 'on',
      helpdesk: 'on',
      knowledge: 'on',
      time: 'on',
      crm: 'on',
    });
    expect((await readSettings(service.db)).mcp).toBe(true);
    expect((await readSettings(service.db)).modules.boards).toBe(true);
  });

  it('writes each switch it turns to the audit log under the administrator, shown on /admin/audit', async () => {
    const browser = await loggedIn(service, 'ada');
    const fields = formFields((await browser.get('/admin/settings')).text, '/admin/settings');
    const everythingOn = { rest_api: 'on', mcp: 'on', boards: 'on', sprints: 'on', helpdesk: 'on', knowledge: 'on', time: 'on', crm: 'on' };
    expect((await browser.post('/admin/settings', { ...fields, ...everythingOn, time: '' })).status).toBe(303);
    const audit = await browser.get('/admin/audit');
    expect(audit.status).toBe(200);
    const newest = audit.text.split('<tbody>')[1]!.split('</tr>')[0]!;
    expect(newest).toContain('Ada Admin');
    expect(newest).toContain('setting.changed');
    expect(newest).toContain('workspace setting time');
    // saving without a change writes nothing
    const rows = (await service.db.selectFrom('audit_log').select('id').execute()).length;
    await browser.post('/admin/settings', { ...fields, ...everythingOn, time: '' });
    expect((await service.db.selectFrom('audit_log').select('id').execute()).length).toBe(rows);
    await browser.post('/admin/settings', { ...fields, ...everythingOn });
    expect((await readSettings(service.db)).modules.time).toBe(true);
  });
});

describe('pages: the read-only ticket page', () => {
  it('shows a ticket the member can see at its url, and 404 for one they cannot', async () => {
    const lee = await service.token('lee@example.com');
    const visible = await send(service, 'POST', '/api/v1/tickets', {
      headers: { authorization: `Bearer ${lee}` },
      json: { project: 'CORE', summary: 'Page <check>', description: '# Title\n\n<script>x</script>' },
    });
    const hidden = await send(service, 'POST', '/api/v1/tickets', {
      headers: { authorization: `Bearer ${lee}` },
      json: { project: 'HIDE', summary: 'Secret plan' },
    });
    const url = new URL(visible.json.url);
    const page = await (await loggedIn(service, 'dev2')).get(url.pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Page &lt;check&gt;');
    expect(page.text).toContain('&lt;script&gt;x&lt;/script&gt;');
    expectPageHeaders(page);
    const refused = await (await loggedIn(service, 'dev2')).get(new URL(hidden.json.url).pathname);
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain('Secret plan');
    expect((await new Browser(service).get(url.pathname)).location).toBe(`/login?return_to=${encodeURIComponent(url.pathname)}`);
  });
});

describe('consent content uses the same page machinery', () => {
  it('names the application and the return host', async () => {
    const client = await registerClient(service, { client_name: 'Host Check', redirect_uris: ['https://app.example.org/cb'] });
    const browser = await loggedIn(service);
    const page = await browser.get(authorizeUrl({ client }));
    expect(page.text).toContain('id="return-host">app.example.org<');
    expect((await consent(browser, authorizeUrl({ client }))).status).toBe(303);
  });
});
