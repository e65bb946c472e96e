import fs from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

// Debian's chromium, installed by .ci/install-chromium.sh when missing.
const CHROMIUM = '/usr/bin/chromium';

/** One browser per test file; one context per test. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A browser that does not close within ten seconds is left to exit with the worker, so teardown never hangs the run. */
export async function closeChromium(browser: Browser | undefined): Promise<void> {
  await Promise.race([browser?.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
}

export interface Visit {
  context: BrowserContext;
  page: Page;
  /** Console errors (a CSP violation is one) and dialogs (an alert would be a script that ran). */
  problems: string[];
}

/** A new context logged in as the member, on `path`; `javaScript: false` for the pages as they work without script. */
export async function logIn(
  browser: Browser,
  base: string,
  email: string,
  password: string,
  path = '/',
  options: { javaScript?: boolean; width?: number } = {},
): Promise<Visit> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScript ?? true,
    viewport: { width: options.width ?? 1280, height: 900 },
    // No transitions: axe reads colours as they settle, not mid-fade.
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 40[34]/.test(message.text())) problems.push(message.text());
  });
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(new URL(path, base).href);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(new URL(path, base).href);
  return { context, page, problems };
}

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Waits until htmx has answered and swapped: what a test types or changes next is not swapped
 * away by a request already in flight (a new type redraws the create form's fields).
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping'));
}

/**
 * axe-core on the page as it is now: no serious or critical finding. Its source is put in the
 * page by the test (no CDN); the page's own CSP forbids inline scripts, which evaluate bypasses.
 * It runs in the page, so only in a context with JavaScript on. It waits for htmx to settle: a
 * button is dimmed while its request is in flight, and the settled page is what is judged.
 */
export async function expectAccessible(page: Page, what = page.url()): Promise<void> {
  await settled(page);
  const injected = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!injected) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe-core on ${what}`,
  ).toEqual([]);
}
