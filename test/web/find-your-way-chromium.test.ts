import type { Browser as Chromium, BrowserContext, Page } from 'playwright-core';
import { closeChromium, launchChromium } from './browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { startListeningService } from '../oauth/support.ts';

// In a real browser (ADR 0021): a member finds their way from the home page, the pages fit a phone,
// the board's columns stand side by side, and a reload after creating a token makes no second one.

const PHONE = { width: 375, height: 740 };

let service: TestService;
let browser: Chromium;

beforeAll(async () => {
  service = await startListeningService({ workspace: 'pages-workspace.yaml' });
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const at = (path: string) => new URL(path, service.url).href;

interface Watched {
  context: BrowserContext;
  page: Page;
  /** Console errors (a CSP violation is one) and dialogs (an alert would be a script that ran). */
  problems: string[];
}

async function logIn(email: string, password: string, viewport = { width: 1280, height: 900 }, path = '/'): Promise<Watched> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(at(path));
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForURL(at(path));
  return { context, page, problems };
}

/** How far the page itself scrolls sideways (0 when it fits the viewport). */
const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('Chromium: a member finds their way from the home page', () => {
  it('goes home → project → ticket → person by links, sees rendered rich text, and nothing is blocked or run', async () => {
    const { context, page, problems } = await logIn('dev2@example.com', 'dev2-password');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.click('#projects a[href="/projects/CORE"]');
    await page.waitForSelector('#project-key');
    await page.click('#open-tickets a[href="/browse/CORE-3"]');
    await page.waitForSelector('#ticket-key');
    expect(await page.textContent('#ticket-key')).toBe('CORE-3');
    await page.click('#assignee a');
    await page.waitForSelector('#person-name');
    expect(await page.textContent('#person-name')).toBe('Dev Two');

    await page.goto(at('/browse/CORE-1'));
    expect(await page.textContent('#description strong')).toBe('release');
    expect(await page.locator('#description table td', { hasText: 'Tag' }).count()).toBe(1);
    expect(await page.locator('#description script').count()).toBe(0);
    expect(await page.textContent('#description')).toContain("<script>alert('raw html')</script>");
    await page.click('#description a[href="/browse/CORE-2"]');
    await page.waitForSelector('#description h3');
    expect(await page.textContent('#description h3')).toBe('Steps');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a page with a way home for an unknown address', async () => {
    const { context, page, problems } = await logIn('dev2@example.com', 'dev2-password');
    const answer = await page.goto(at('/no/such/page'));
    expect(answer?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('There is no page here');
    await page.click('main a[href="/"]');
    await page.waitForSelector('#assigned');
    // Chromium reports the 404 answer itself on the console; nothing else may appear
    expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
    await context.close();
  });
});

describe('Chromium: the board page', () => {
  it('stands the columns side by side and switches sprint by its links', async () => {
    const { context, page } = await logIn('dev2@example.com', 'dev2-password', undefined, '/boards/1');
    const boxes = await page
      .locator('#columns > section')
      .evaluateAll((sections) => sections.map((s) => s.getBoundingClientRect().toJSON() as DOMRect));
    expect(boxes).toHaveLength(3);
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i]!.top).toBe(boxes[0]!.top);
      expect(boxes[i]!.left).toBeGreaterThanOrEqual(boxes[i - 1]!.right);
    }
    expect(await page.textContent('#sprint-name')).toBe('Sprint 1');
    await page.click('#sprints a:has-text("Sprint 2")');
    await page.waitForURL(at('/boards/1?sprint=Sprint%202'));
    expect(await page.textContent('#sprint-name')).toBe('Sprint 2');
    expect(await page.locator('#columns a[href="/browse/CORE-4"]').count()).toBe(1);
    expect(await page.locator('#columns a[href="/browse/CORE-3"]').count()).toBe(0);
    await context.close();
  });
});

describe('Chromium: on a phone (375 px wide) the pages fit without scrolling sideways', () => {
  it('creates a token with a long name, sees it once, a reload makes no second one, and no page scrolls sideways', async () => {
    const { context, page, problems } = await logIn('lee@example.com', 'lee-password', PHONE, '/agents');
    const name = 'release-pipeline-nightly-build-agent-with-a-very-long-name';
    await page.fill('input[name=name]', name);
    await page.selectOption('select[name=access]', 'write');
    await page.selectOption('select[name=lifetime]', '30');
    await page.click('button:has-text("Create token")');
    await page.waitForSelector('#new-token');
    expect(new URL(page.url()).pathname).toBe('/agents');
    expect(page.url()).not.toContain('svc_pat_');
    expect(await sidewaysScroll(page)).toBe(0);

    await page.reload();
    await page.waitForSelector('h1:has-text("AI agents")');
    expect(await page.locator('#new-token').count()).toBe(0);
    expect(await page.locator(`tr[data-token="${name}"]`).count()).toBe(1);
    expect(await sidewaysScroll(page)).toBe(0);

    for (const path of ['/', '/agents/activity', '/browse/CORE-1', '/boards/1', '/projects/CORE', '/notifications']) {
      await page.goto(at(path));
      expect(await sidewaysScroll(page), path).toBe(0);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the settings page says Saved. and offers no switch for a module not built', async () => {
    const { context, page } = await logIn('ada@example.com', 'ada-password', PHONE, '/admin/settings');
    expect(await page.locator('#saved').count()).toBe(0);
    await page.click('button:has-text("Save")');
    await page.waitForSelector('#saved');
    expect(await page.textContent('#saved')).toBe('Saved.');
    for (const unavailable of await page.locator('.unavailable').all()) {
      expect(await unavailable.textContent()).toContain('not available yet');
      expect(await unavailable.locator('input').count()).toBe(0);
    }
    expect(await sidewaysScroll(page)).toBe(0);
    await context.close();
  });
});
