import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formToken } from '../../src/web/session.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { Browser, formFields, loggedIn, send, workspaceWithDevTwo } from '../oauth/support.ts';

let service: TestService;
let lee: string;
let dev2: string;

beforeAll(async () => {
  service = await startTestService({ workspace: workspaceWithDevTwo() });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  dev2 = await service.token('dev2@example.com', 'write', 'Dev Two agent');
});
afterAll(async () => service?.close());

const api = (token: string, method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, ...(json === undefined ? {} : { json }) });

async function ticketOfDevTwo(summary: string): Promise<string> {
  const created = await api(dev2, 'POST', '/tickets', { project: 'CORE', summary });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

const unreadInHeader = (page: string) => /id="unread-count" class="count"( hidden)?>(\d+)</.exec(page);

describe('notifications page: what changed, on which ticket, by whom and through which agent, unread first', () => {
  it('lists a comment on a watched ticket with its link, author and agent, and counts it in the header', async () => {
    const key = await ticketOfDevTwo('Watched by its reporter');
    expect((await api(lee, 'POST', `/tickets/${key}/comments`, { body: 'Looked at <this> one' })).status).toBe(201);
    const browser = await loggedIn(service, 'dev2');
    const page = await browser.get('/notifications');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/browse/${key}">Lee Lead commented on ${key}</a>`);
    expect(page.text).toContain('Looked at &lt;this&gt; one');
    expect(page.text).toContain('Lee Lead <span class="muted">through Lee agent</span>');
    expect(unreadInHeader(page.text)?.[1]).toBeUndefined();
    expect(Number(unreadInHeader(page.text)?.[2])).toBeGreaterThan(0);
    // every logged-in page carries the count
    expect(unreadInHeader((await browser.get('/agents')).text)?.[2]).toBe(unreadInHeader(page.text)?.[2]);
  });

  it('shows a mention to the mentioned member, the comment to the watcher, and nothing to the author (spec 6)', async () => {
    const key = await ticketOfDevTwo('Mentioned and watched');
    expect((await api(lee, 'POST', `/tickets/${key}/comments`, { body: 'Could @ada have a look?' })).status).toBe(201);
    const pageOf = async (who: 'ada' | 'dev2' | 'lee') => (await (await loggedIn(service, who)).get('/notifications')).text;
    const [ada, watcher, author] = [await pageOf('ada'), await pageOf('dev2'), await pageOf('lee')];
    expect(ada).toContain(`href="/browse/${key}">Lee Lead mentioned you on ${key}</a>`);
    expect(ada).not.toContain(`commented on ${key}`);
    expect(watcher).toContain(`href="/browse/${key}">Lee Lead commented on ${key}</a>`);
    expect(author).not.toContain(key);
  });

  it('puts unread before read, and marks one read, then all', async () => {
    const first = await ticketOfDevTwo('First');
    const second = await ticketOfDevTwo('Second');
    await api(lee, 'POST', `/tickets/${first}/comments`, { body: 'on the first' });
    await api(lee, 'POST', `/tickets/${second}/comments`, { body: 'on the second' });
    const browser = await loggedIn(service, 'dev2');
    let page = await browser.get('/notifications');
    const id = /<tr class="unread" data-id="([^"]+)">(?:(?!<\/tr>)[\s\S])*?commented on /.exec(page.text)![1]!;
    expect((await browser.post(`/notifications/${id}/read`, formFields(page.text, `/notifications/${id}/read`))).status).toBe(303);
    page = await browser.get('/notifications');
    const rows = [...page.text.matchAll(/<tr class="(read|unread)" data-id="([^"]+)"/g)].map((m) => m[1]);
    expect(rows.indexOf('read')).toBeGreaterThan(rows.lastIndexOf('unread'));
    expect(page.text).toContain(`<tr class="read" data-id="${id}"`);
    expect((await browser.post('/notifications/read-all', formFields(page.text, '/notifications/read-all'))).status).toBe(303);
    page = await browser.get('/notifications');
    expect(page.text).not.toContain('<tr class="unread"');
    expect(unreadInHeader(page.text)?.slice(1)).toEqual([' hidden', '0']);
  });

  it("cannot mark another member's notification read, nor post without the form's token", async () => {
    const key = await ticketOfDevTwo('Someone else reads this');
    await api(lee, 'POST', `/tickets/${key}/comments`, { body: 'for dev two' });
    const devPage = await (await loggedIn(service, 'dev2')).get('/notifications');
    const id = /<tr class="unread" data-id="([^"]+)"/.exec(devPage.text)![1]!;
    const leeBrowser = await loggedIn(service, 'lee');
    const leePage = await leeBrowser.get('/notifications');
    // a token of another form of the page is worth nothing here: each is bound to its action
    expect((await leeBrowser.post(`/notifications/${id}/read`, formFields(leePage.text, '/notifications/email'))).status).toBe(403);
    // with this action's own token, Dev Two's notification is not one of Lee's: not found, nothing changed
    const cookie = [...leeBrowser.cookies].find(([name]) => name === 'atrium_session')![1];
    expect((await leeBrowser.post(`/notifications/${id}/read`, { csrf: formToken({ cookie }, `/notifications/${id}/read`) })).status).toBe(
      404,
    );
    expect((await leeBrowser.post('/notifications/read-all', { csrf: 'forged' })).status).toBe(403);
    expect((await (await loggedIn(service, 'dev2')).get('/notifications')).text).toContain(`<tr class="unread" data-id="${id}"`);
  });

  it('sends a stranger to log in first', async () => {
    expect((await new Browser(service).get('/notifications')).location).toBe(`/login?return_to=${encodeURIComponent('/notifications')}`);
    expect((await new Browser(service).post('/notifications/read-all', {})).location).toMatch(/^\/login/);
  });
});

describe('notifications page: email on or off, saved and said so', () => {
  it('turns email off and on again, and says this server sends none while SMTP_URL is unset', async () => {
    const browser = await loggedIn(service, 'lee');
    let page = await browser.get('/notifications');
    expect(page.text).toContain('has not configured delivery (SMTP_URL)');
    expect(page.text).toContain('name="email" value="on" checked');
    const off = await browser.post('/notifications/email', { csrf: formFields(page.text, '/notifications/email').csrf! });
    expect(off.location).toBe('/notifications');
    page = await browser.get(off.location!);
    expect(page.text).toContain('role="status"><p>Saved.</p>');
    expect(page.text).not.toContain('name="email" value="on" checked');
    await browser.post('/notifications/email', { ...formFields(page.text, '/notifications/email'), email: 'on' });
    expect((await browser.get('/notifications')).text).toContain('name="email" value="on" checked');
  });
});

describe('ticket page: a member watches and stops watching a ticket they can see', () => {
  it('watches from the page, is then told of a comment, and stops', async () => {
    const key = await ticketOfDevTwo('Lee will watch this');
    const browser = await loggedIn(service, 'lee');
    let page = await browser.get(`/browse/${key}`);
    expect(page.text).toContain('>Watch</button>');
    expect((await browser.post(`/browse/${key}/watch`, formFields(page.text, `/browse/${key}/watch`))).location).toBe(`/browse/${key}`);
    page = await browser.get(`/browse/${key}`);
    expect(page.text).toContain('Stop watching');
    expect(page.text).toContain(`You now watch ${key}`);
    await api(dev2, 'POST', `/tickets/${key}/comments`, { body: 'Lee should hear of this' });
    expect((await browser.get('/notifications')).text).toContain(`Dev Two commented on ${key}`);

    await browser.post(`/browse/${key}/unwatch`, formFields(page.text, `/browse/${key}/unwatch`));
    expect((await browser.get(`/browse/${key}`)).text).toContain('>Watch</button>');
    await api(dev2, 'POST', `/tickets/${key}/comments`, { body: 'Lee no longer hears this' });
    expect((await browser.get('/notifications')).text).not.toContain('Lee no longer hears this');
  });

  it('is 404 for a ticket the member cannot see, and refuses a forged form', async () => {
    const hidden = await api(lee, 'POST', '/tickets', { project: 'HIDE', summary: 'Not for dev two' });
    const browser = await loggedIn(service, 'dev2');
    const own = await ticketOfDevTwo('Own');
    const ownPage = await browser.get(`/browse/${own}`);
    // the form of another ticket (Dev Two reported it, so watches it): its token is bound to that ticket's action
    expect((await browser.post(`/browse/${hidden.json.key}/unwatch`, formFields(ownPage.text, `/browse/${own}/unwatch`))).status).toBe(403);
    const cookie = [...browser.cookies].find(([name]) => name === 'atrium_session')![1];
    const refused = await browser.post(`/browse/${hidden.json.key}/watch`, {
      csrf: formToken({ cookie }, `/browse/${hidden.json.key}/watch`),
    });
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain('Not for dev two');
    expect((await browser.get(`/browse/${hidden.json.key}`)).status).toBe(404);
  });
});

describe('event stream: only for a logged-in member, only topics the member may see', () => {
  it('refuses a stranger, an unknown topic and a ticket the member cannot see', async () => {
    expect((await new Browser(service).get('/events')).status).toBe(401);
    const browser = await loggedIn(service, 'dev2');
    expect((await browser.get('/events?topic=everything')).status).toBe(400);
    const hidden = await api(lee, 'POST', '/tickets', { project: 'HIDE', summary: 'Not to be streamed' });
    expect((await browser.get(`/events?topic=ticket:${hidden.json.key}`)).status).toBe(404);
  });
});
