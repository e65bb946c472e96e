import http from 'node:http';
import type { Browser as Chromium, Page } from 'playwright-core';
import { closeChromium, launchChromium } from './browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { loggedIn, send, startListeningService, workspaceWithDevTwo } from '../oauth/support.ts';

let service: TestService;
let browser: Chromium;
let lee: string;
let dev2: string;

const BOARD = `
boards:
  - number: 1
    name: Live board
    kind: kanban
    projects: [CORE]
    columns:
      - { name: Waiting, statuses: [To Do] }
      - { name: Doing, statuses: [In Progress] }
      - { name: Finished, statuses: [Done] }
`;

beforeAll(async () => {
  service = await startListeningService({ workspace: workspaceWithDevTwo() + BOARD });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  dev2 = await service.token('dev2@example.com', 'write');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const api = (token: string, method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, ...(json === undefined ? {} : { json }) });

async function openLoggedIn(path: string): Promise<Page> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(new URL(path, service.url).href);
  await page.fill('input[name=email]', 'dev2@example.com');
  await page.fill('input[name=password]', 'dev2-password');
  await page.click('button[type=submit]');
  await page.waitForURL(new URL(path, service.url).href);
  // the page says when its stream hears changes; a change made before could be missed
  await page.waitForSelector('body[data-listening="yes"]');
  // a mark that a reload would wipe: the page must update in place
  await page.evaluate(() => Object.assign(window, { stayedOpen: true }));
  (page as Page & { cspErrors?: string[] }).cspErrors = errors;
  return page;
}

const stayedOpen = (page: Page) => page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen === true);

describe('live pages: an open ticket page shows a change made elsewhere, without a reload', () => {
  it("shows Lee's comment and the new unread count while Dev Two keeps the page open", async () => {
    const created = await api(dev2, 'POST', '/tickets', { project: 'CORE', summary: 'Open in a browser' });
    const page = await openLoggedIn(`/browse/${created.json.key}`);
    expect(await page.textContent('#unread-count')).toBe('0');

    expect((await api(lee, 'POST', `/tickets/${created.json.key}/comments`, { body: 'Seen live, not after a reload' })).status).toBe(201);
    await page.waitForSelector('text=Seen live, not after a reload', { timeout: 15_000 });
    await page.waitForFunction(() => document.getElementById('unread-count')?.textContent === '1', undefined, { timeout: 15_000 });
    expect(await stayedOpen(page)).toBe(true);
    expect((page as Page & { cspErrors?: string[] }).cspErrors).toEqual([]);
    await page.close();
  });
});

describe('live pages: an open board shows a card another member moved through MCP', () => {
  it('moves the card to its new column on the open page', async () => {
    const created = await api(dev2, 'POST', '/tickets', { project: 'CORE', summary: 'Card that moves' });
    const page = await openLoggedIn('/boards/1');
    const column = () =>
      page.evaluate(
        (key) => document.querySelector(`a[href="/browse/${key}"]`)?.closest('section')?.querySelector('h2')?.textContent ?? null,
        created.json.key as string,
      );
    expect(await column()).toContain('Waiting');
    // through MCP, as an agent would
    const { postMcp, request } = await import('../mcp/mcp-client.ts');
    const moved = await postMcp(
      service,
      request('tools/call', { name: 'transition_ticket', arguments: { key: created.json.key, transition: 'Start' } }),
      { token: lee },
    );
    expect(moved.body.result.isError).toBe(false);
    await page.waitForFunction(
      (key) => document.querySelector(`a[href="/browse/${key}"]`)?.closest('section')?.querySelector('h2')?.textContent?.includes('Doing'),
      created.json.key as string,
      { timeout: 15_000 },
    );
    expect(await stayedOpen(page)).toBe(true);
    await page.close();
  });
});

describe('live pages: the notifications page lists a new notification as it comes', () => {
  it('adds the row while open', async () => {
    const created = await api(dev2, 'POST', '/tickets', { project: 'CORE', summary: 'Told while reading' });
    const page = await openLoggedIn('/notifications');
    await api(lee, 'POST', `/tickets/${created.json.key}/comments`, { body: 'A fresh notification' });
    await page.waitForSelector(`text=Lee Lead commented on ${created.json.key}`, { timeout: 15_000 });
    expect(await stayedOpen(page)).toBe(true);
    await page.close();
  });
});

/** A raw event stream of a logged-in member, as a page's EventSource holds it. */
function listen(cookie: string, topic: string) {
  const heard: string[] = [];
  let request!: http.ClientRequest;
  const ready = new Promise<void>((resolve, reject) => {
    request = http.get(new URL(`/events?topic=${topic}`, service.url), { headers: { cookie }, agent: false }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        heard.push(chunk);
        if (heard.join('').includes('event: ready')) resolve();
      });
    });
    request.on('error', reject);
  });
  const unread = () => [...heard.join('').matchAll(/event: unread\ndata: (\d+)/g)].map((m) => Number(m[1]));
  return { ready, unread, close: () => request.destroy() };
}

describe("live pages: each open page hears its own member's unread count, all counted in one query per change", () => {
  it('tells the notified member and not the author, and costs as many queries with six pages open as with one', async () => {
    const ticket = await api(dev2, 'POST', '/tickets', { project: 'CORE', summary: 'Counted for every open page' });
    const [dev2Cookie, leeCookie] = [(await loggedIn(service, 'dev2')).cookieHeader(), (await loggedIn(service, 'lee')).cookieHeader()];

    const queriesOfOneComment = async (streams: ReturnType<typeof listen>[], notified: ReturnType<typeof listen>[]) => {
      await Promise.all(streams.map((s) => s.ready));
      const before = notified.map((s) => s.unread().at(-1)!);
      const counted = service.database.queries.count;
      expect((await api(lee, 'POST', `/tickets/${ticket.json.key}/comments`, { body: 'Counted' })).status).toBe(201);
      await expect.poll(() => notified.every((s, i) => s.unread().at(-1) === before[i]! + 1), { timeout: 15_000, interval: 20 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return service.database.queries.count - counted;
    };

    const alone = listen(dev2Cookie, 'me');
    const withOne = await queriesOfOneComment([alone], [alone]);
    alone.close();

    const dev2Pages = [listen(dev2Cookie, 'me'), listen(dev2Cookie, 'notifications'), listen(dev2Cookie, `ticket:${ticket.json.key}`)];
    const leePages = [listen(leeCookie, 'me'), listen(leeCookie, 'notifications'), listen(leeCookie, `ticket:${ticket.json.key}`)];
    const withSix = await queriesOfOneComment([...dev2Pages, ...leePages], dev2Pages);
    expect(withSix).toBe(withOne);
    // the author's own comment notifies nobody on the author's pages: their count stays as it was
    for (const page of leePages) expect(new Set(page.unread()).size).toBe(1);
    for (const page of [...dev2Pages, ...leePages]) page.close();
  });
});

// Last in this file: it drains the service.
describe('live pages: a shutdown ends the open event streams instead of waiting for them', () => {
  it('ends a stream as the node drains, and a new one is refused', async () => {
    const cookie = (await loggedIn(service, 'dev2')).cookieHeader();
    let ended = false;
    const heard: string[] = [];
    await new Promise<void>((resolve, reject) => {
      http
        .get(new URL('/events?topic=me', service.url), { headers: { cookie } }, (response) => {
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            heard.push(chunk);
            if (heard.join('').includes('event: ready')) resolve();
          });
          response.on('end', () => {
            ended = true;
          });
        })
        .on('error', reject);
    });
    await service.app.drain(5_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(true);
    expect((await send(service, 'GET', '/events', { headers: { cookie } })).status).toBe(503);
  });
});
