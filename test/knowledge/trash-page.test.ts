import { chromium, type Browser as Chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { Browser, send, startListeningService } from '../oauth/support.ts';

// Debian's chromium, installed by .ci/install-chromium.sh when missing.
const CHROMIUM = '/usr/bin/chromium';

let service: TestService;
let browser: Chromium;
let lee: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: 'knowledge-workspace.yaml' });
  lee = await service.token('lee@example.com', 'write');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
afterAll(async () => {
  await Promise.race([browser?.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  await service?.close();
}, 60_000);

const api = (method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1/knowledge${path}`, {
    headers: { authorization: `Bearer ${lee}` },
    ...(json === undefined ? {} : { json }),
  });
const treeSlugs = async () => (await api('GET', '/spaces/ENG/tree')).json.pages.map((p: { slug: string }) => p.slug);

describe('3.5 the trash: those who manage a space restore deleted pages from it in the browser', () => {
  it('lists a deleted folder and restores it with the page under it', async () => {
    await api('POST', '/spaces/ENG/pages', { title: 'Archive me', kind: 'folder' });
    await api('POST', '/spaces/ENG/pages', { title: 'Child page', parent: 'archive-me', body: 'kept' });
    expect((await api('DELETE', '/spaces/ENG/pages/archive-me')).status).toBe(200);
    expect(await treeSlugs()).not.toContain('child-page');

    const page = await browser.newPage();
    await page.goto(new URL('/knowledge/ENG/trash', service.url).href);
    await page.fill('input[name=email]', 'lee@example.com');
    await page.fill('input[name=password]', 'lee-password');
    await page.click('button[type=submit]');
    await page.waitForSelector('tr[data-slug="archive-me"]');
    // the child went with its folder: one row, restored together
    expect(await page.locator('tr[data-slug="child-page"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Restore Archive me' }).click();
    await page.getByRole('status').filter({ hasText: 'Restored “Archive me”.' }).waitFor();
    expect(await page.locator('tr[data-slug="archive-me"]').count()).toBe(0);
    await page.close();
    expect(await treeSlugs()).toEqual(expect.arrayContaining(['archive-me', 'child-page']));
    expect((await api('GET', '/spaces/ENG/pages/child-page')).json.parent).toBe('archive-me');
  });

  it('is refused to a member who only edits the space (403), and to a stranger (log in first)', async () => {
    const dev = new Browser(service);
    await dev.logIn('dev1@example.com', 'dev1-password');
    const refused = await dev.get('/knowledge/ENG/trash');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Only those who manage space ENG see its trash: it needs knowledge:manage');
    expect((await new Browser(service).get('/knowledge/ENG/trash')).location).toMatch(/^\/login\?return_to=/);
    const outsider = new Browser(service);
    expect((await outsider.get('/knowledge/NOPE/trash')).location).toMatch(/^\/login/);
  });
});
