import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { send, startListeningService, workspaceWithDevTwo } from '../oauth/support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn } from './browser.ts';

// The foundation carries: the ticket page's Watch and the notifications page's Mark read run
// web-only operations from the page — with htmx answered by the changed fragment, and without
// JavaScript by POST → 303 → GET with a flash message — and what they did is seen from outside.

let service: TestService;
let browser: Browser;
let lee: string;
let dev2: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: workspaceWithDevTwo() });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  dev2 = await service.token('dev2@example.com', 'write', 'Dev Two agent');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const api = (token: string, method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, ...(json === undefined ? {} : { json }) });

async function ticketOfDevTwo(summary: string): Promise<string> {
  const created = await api(dev2, 'POST', '/tickets', { project: 'CORE', summary });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

/** A mark a reload would wipe: the page changed in place. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stayedOpen: true }));
const stayedOpen = (page: Page) => page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen === true);

/** How many times Lee was told of a comment on the ticket, read on his notifications page. */
async function toldLee(key: string): Promise<number> {
  const visit = await logIn(browser, service.url, 'lee@example.com', 'lee-password', '/notifications', { javaScript: false });
  const told = await visit.page.getByRole('link', { name: `Dev Two commented on ${key}` }).count();
  await visit.context.close();
  return told;
}

/** Lee hears of a comment on the ticket only while watching it: the outcome seen from another member's change. */
async function leeIsToldOf(key: string, body: string): Promise<boolean> {
  const before = await toldLee(key);
  expect((await api(dev2, 'POST', `/tickets/${key}/comments`, { body })).status).toBe(201);
  return (await toldLee(key)) > before;
}

describe('Watch on the ticket page runs watch_ticket and unwatch_ticket, with htmx', () => {
  it('swaps the button in place, says so, and Lee is told of the next comment until he stops', async () => {
    const key = await ticketOfDevTwo('Watched with htmx');
    const { context, page, problems } = await logIn(browser, service.url, 'lee@example.com', 'lee-password', `/browse/${key}`);
    await expectAccessible(page, 'ticket page');
    await markPage(page);
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.getByRole('button', { name: 'Stop watching' }).waitFor();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`You now watch ${key}`);
    expect(await stayedOpen(page)).toBe(true);
    await expectAccessible(page, 'ticket page after Watch');
    expect(await leeIsToldOf(key, 'Heard while watching')).toBe(true);

    await page.getByRole('button', { name: 'Stop watching' }).click();
    await page.getByRole('button', { name: 'Watch', exact: true }).waitFor();
    expect(await stayedOpen(page)).toBe(true);
    expect(await leeIsToldOf(key, 'Not heard any more')).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('Watch on the ticket page works without JavaScript', () => {
  it('posts, is redirected back to the ticket with a message, and the button says Stop watching', async () => {
    const key = await ticketOfDevTwo('Watched without script');
    const { context, page } = await logIn(browser, service.url, 'lee@example.com', 'lee-password', `/browse/${key}`, { javaScript: false });
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.waitForURL(new URL(`/browse/${key}`, service.url).href);
    expect(await page.getByRole('status').textContent()).toContain(`You now watch ${key}`);
    await page.getByRole('button', { name: 'Stop watching' }).waitFor();
    // a reload shows the message no more
    await page.reload();
    expect(await page.getByRole('status').count()).toBe(0);
    expect(await leeIsToldOf(key, 'Heard without script')).toBe(true);
    await context.close();
  });
});

describe('Mark read on the notifications page runs mark_notification_read, with htmx', () => {
  it('turns the row read and the header count down in place; Mark all read empties the count', async () => {
    const first = await ticketOfDevTwo('First to read');
    const second = await ticketOfDevTwo('Second to read');
    await api(lee, 'POST', `/tickets/${first}/comments`, { body: 'one' });
    await api(lee, 'POST', `/tickets/${second}/comments`, { body: 'two' });
    const { context, page, problems } = await logIn(browser, service.url, 'dev2@example.com', 'dev2-password', '/notifications');
    await expectAccessible(page, 'notifications page');
    const count = page.locator('#unread-count');
    const before = Number(await count.textContent());
    expect(before).toBeGreaterThanOrEqual(2);
    await markPage(page);
    await page.getByRole('button', { name: `Mark read: Lee Lead commented on ${first}` }).click();
    await expect.poll(() => count.textContent()).toBe(String(before - 1));
    expect(await page.getByRole('button', { name: `Mark read: Lee Lead commented on ${first}` }).count()).toBe(0);
    expect(await page.getByRole('button', { name: `Mark read: Lee Lead commented on ${second}` }).count()).toBe(1);
    expect(await stayedOpen(page)).toBe(true);

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => count.isHidden()).toBe(true);
    expect(await page.getByRole('button', { name: /^Mark read/ }).count()).toBe(0);
    expect(await stayedOpen(page)).toBe(true);
    await expectAccessible(page, 'notifications page, all read');
    expect(problems).toEqual([]);
    await context.close();

    // seen from outside: a fresh session of Dev Two reads them all read
    const again = await logIn(browser, service.url, 'dev2@example.com', 'dev2-password', '/notifications', { javaScript: false });
    expect(await again.page.locator('#unread-count').isHidden()).toBe(true);
    await again.context.close();
  });
});

describe('Mark read on the notifications page works without JavaScript', () => {
  it('posts, is redirected back with a message, and the notification is read', async () => {
    const key = await ticketOfDevTwo('Read without script');
    await api(lee, 'POST', `/tickets/${key}/comments`, { body: 'three' });
    const { context, page } = await logIn(browser, service.url, 'dev2@example.com', 'dev2-password', '/notifications', {
      javaScript: false,
    });
    const before = Number(await page.locator('#unread-count').textContent());
    await page.getByRole('button', { name: `Mark read: Lee Lead commented on ${key}` }).click();
    await page.waitForURL(new URL('/notifications', service.url).href);
    expect(await page.getByRole('status').textContent()).toContain(`Marked read: Lee Lead commented on ${key}`);
    expect(await page.getByRole('button', { name: `Mark read: Lee Lead commented on ${key}` }).count()).toBe(0);
    expect(await page.locator('#unread-count').textContent()).toBe(String(before - 1));
    await context.close();
  });
});
