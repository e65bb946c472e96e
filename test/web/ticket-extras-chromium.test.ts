import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { type Browser as PlainBrowser, startListeningService } from '../oauth/support.ts';
import { api, EXTRAS_WORKSPACE, memberBrowser } from '../tickets/extras-support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn } from './browser.ts';

// A member attaches files to a ticket, downloads one, votes and reads the ticket's history in
// Chromium, with and without JavaScript; an administrator sets the per-file limit, and a file
// over it is refused. Each outcome is read from outside: the download itself, another member's
// view, the changes the REST API made.

let service: TestService;
let browser: Browser;
let lee: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: EXTRAS_WORKSPACE });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

async function ticketOfLee(summary: string): Promise<string> {
  const created = await api(service, lee, 'POST', '/tickets', { project: 'CORE', summary });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stayedOpen: true }));
const stayedOpen = (page: Page) => page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen === true);

/** The Votes section's count as Vic reads it in his own session. */
async function countSeenByVic(key: string): Promise<string> {
  const vic: PlainBrowser = await memberBrowser(service, 'vic');
  const page = await vic.get(`/browse/${key}`);
  return /<p id="vote-count">([^<]*)<\/p>/.exec(page.text)?.[1] ?? '';
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

describe('a member attaches several files, downloads one, votes and reads the history, with htmx', () => {
  it('changes the sections in place, and the download holds the bytes chosen', async () => {
    const key = await ticketOfLee('Screenshots wanted');
    expect((await api(service, lee, 'PATCH', `/tickets/${key}`, { priority: 'High' })).status).toBe(200);
    const { context, page, problems } = await logIn(browser, service.url, 'dev@example.com', 'dev-password', `/browse/${key}`);
    await expectAccessible(page, 'ticket page with its sections');
    await markPage(page);

    await page.getByLabel('Files').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('What I saw, in words.') },
      { name: 'screen.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await page.getByRole('button', { name: 'Attach' }).click();
    await page.getByRole('link', { name: 'screen.png' }).waitFor();
    await expect
      .poll(() => page.locator('#flash').getByRole('status').textContent())
      .toContain(`Attached notes.txt, screen.png to ${key}.`);
    expect(await stayedOpen(page)).toBe(true);
    await expectAccessible(page, 'ticket page after attaching');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'notes.txt' }).click()]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    expect(await fs.readFile((await download.path())!, 'utf8')).toBe('What I saw, in words.');

    await page.getByRole('button', { name: 'Vote' }).click();
    await page.getByRole('button', { name: 'Remove my vote' }).waitFor();
    expect(await page.locator('#vote-count').textContent()).toBe('1 vote');
    expect(await page.getByRole('list', { name: 'Who voted' }).textContent()).toContain('Dev Worker');
    expect(await countSeenByVic(key)).toBe('1 vote');
    expect(await stayedOpen(page)).toBe(true);

    // the history, read after a reload: the REST API's changes with the agent's name, then the browser's
    await page.reload();
    const history = page.getByRole('region', { name: 'History' });
    const entries = await history.getByRole('listitem').allTextContents();
    const words = entries.map((entry) => entry.replace(/\s+/g, ' ').trim());
    expect(words[0]).toMatch(/^Lee Lead created the ticket via Lee agent/);
    expect(words[1]).toMatch(/^Lee Lead changed the ticket via Lee agent .*Priority: Medium → High/);
    expect(words[2]).toMatch(/^Dev Worker attached in the browser .*Attachment: notes.txt.*Attachment: screen.png/);
    await expectAccessible(page, 'ticket page with its history');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'ticket page with its history, dark');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('attaching, deleting and voting work without JavaScript', () => {
  it('posts, is redirected back to the ticket with a message, and the file and vote are there', async () => {
    const key = await ticketOfLee('Without script');
    const { context, page } = await logIn(browser, service.url, 'dev@example.com', 'dev-password', `/browse/${key}`, { javaScript: false });
    await page.getByLabel('Files').setInputFiles([{ name: 'plain.txt', mimeType: 'text/plain', buffer: Buffer.from('no script') }]);
    await page.getByRole('button', { name: 'Attach' }).click();
    await page.waitForURL(new URL(`/browse/${key}#attachments`, service.url).href);
    expect(await page.locator('#flash').getByRole('status').textContent()).toContain(`Attached plain.txt to ${key}.`);
    const href = await page.getByRole('link', { name: 'plain.txt' }).getAttribute('href');
    const vic = await memberBrowser(service, 'vic');
    expect((await vic.get(href!)).text).toBe('no script');

    await page.getByRole('button', { name: 'Vote' }).click();
    await page.waitForURL(new URL(`/browse/${key}#votes`, service.url).href);
    expect(await page.locator('#flash').getByRole('status').textContent()).toContain(`You voted for ${key}.`);
    expect(await countSeenByVic(key)).toBe('1 vote');

    await page.getByRole('button', { name: 'Delete plain.txt' }).click();
    await page.waitForURL(new URL(`/browse/${key}#attachments`, service.url).href);
    expect(await page.locator('#flash').getByRole('status').textContent()).toContain(`Deleted plain.txt from ${key}.`);
    expect((await vic.get(href!)).status).toBe(404);
    await context.close();
  });
});

describe('an administrator sets the per-file limit, and a file over it is refused with nothing kept', () => {
  it('saves 1 MB on the settings page; a 2 MB file is refused at the Files field', async () => {
    const admin = await logIn(browser, service.url, 'ada@example.com', 'ada-password', '/admin/settings');
    await expectAccessible(admin.page, 'settings page');
    await admin.page.getByLabel('Largest attachment, in MB').fill('1');
    await admin.page.getByRole('button', { name: 'Save the limit' }).click();
    await expect
      .poll(() => admin.page.locator('#flash').getByRole('status').textContent())
      .toContain('Each attachment may now be up to 1 MB.');
    try {
      const key = await ticketOfLee('Too large');
      const { context, page, problems } = await logIn(browser, service.url, 'dev@example.com', 'dev-password', `/browse/${key}`);
      expect(await page.getByText('each up to 1 MB').count()).toBe(1);
      await page
        .getByLabel('Files')
        .setInputFiles([{ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2 * 1024 * 1024, 1) }]);
      await page.getByRole('button', { name: 'Attach' }).click();
      // said at the Files field, tied to it for a screen reader
      const said = page.getByText('big.bin is larger than 1 MB, the largest file this workspace takes; nothing was attached');
      await said.waitFor();
      expect(await page.getByLabel('Files').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('link', { name: 'big.bin' }).count()).toBe(0);
      await expectAccessible(page, 'ticket page with a refused upload');
      const again = await memberBrowser(service, 'vic');
      expect((await again.get(`/browse/${key}`)).text).toContain('No attachments');
      expect(problems.filter((p) => !/status of 413/.test(p))).toEqual([]);
      await context.close();
    } finally {
      await admin.page.getByLabel('Largest attachment, in MB').fill('25');
      await admin.page.getByRole('button', { name: 'Save the limit' }).click();
      await expect.poll(() => admin.page.locator('#flash').getByRole('status').textContent()).toContain('up to 25 MB');
      await admin.context.close();
    }
  });
});
