import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { startListeningService } from '../oauth/support.ts';
import { api, EXTRAS_WORKSPACE, linksOf } from '../tickets/extras-support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn } from './browser.ts';

// A member links a ticket to another on the ticket page and removes the link, in Chromium, with
// and without JavaScript; a refused link is said at its field with what was typed kept. The REST
// API is the witness: GET /tickets/{key} of both tickets reads the link, each its own way round.

vi.setConfig({ testTimeout: 60_000 });

let service: TestService;
let browser: Browser;
let lee: string;
let witness: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: EXTRAS_WORKSPACE });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  witness = await service.token('ada@example.com', 'read', 'Witness');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

async function ticket(summary: string): Promise<string> {
  const created = await api(service, lee, 'POST', '/tickets', { project: 'CORE', summary });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

/** The ticket's links as another member reads them through GET /tickets/{key}: relation and key. */
const links = (key: string) => linksOf(service, witness, key);

const asLee = (key: string, javaScript = true) =>
  logIn(browser, service.url, 'lee@example.com', 'lee-password', `/browse/${key}`, { javaScript });
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stayedOpen: true }));
const stayedOpen = (page: Page) => page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen === true);
const linksTable = (page: Page) => page.getByRole('table', { name: /Links of/ });

/**
 * A change made on the page, and the live refresh it brings (the link is announced on the
 * ticket): done before the next form is filled, so the refresh never draws the page over it.
 */
async function changedAndRefreshed(page: Page, act: () => Promise<void>): Promise<void> {
  const before = await page.evaluate(() => Number(document.body.dataset.refreshed ?? 0));
  await act();
  await page.waitForFunction((n) => Number(document.body.dataset.refreshed ?? 0) > n, before);
}

describe('link a ticket to another and remove the link, with htmx', () => {
  it('adds "is blocked by", refuses it twice at the field, and removes it, the section swapped in place', async () => {
    const [a, b] = [await ticket('Ship the release'), await ticket('Fix the build')];
    const { context, page, problems } = await asLee(a);
    await page.waitForSelector('body[data-listening="yes"]');
    await expectAccessible(page, 'ticket page with its Links section');
    await markPage(page);

    const linkForm = page.getByRole('form', { name: 'Link to another ticket' });
    await linkForm.getByLabel('Relation').selectOption('is blocked by');
    await linkForm.getByLabel('Ticket key').fill(b);
    await changedAndRefreshed(page, () => linkForm.getByRole('button', { name: 'Add link' }).click());
    await expect.poll(() => linksTable(page).getByRole('row').count()).toBe(2);
    const row = linksTable(page).getByRole('row').nth(1);
    expect(await row.textContent()).toContain('is blocked by');
    expect(await row.getByRole('link', { name: b }).count()).toBe(1);
    expect(await row.textContent()).toContain('Fix the build');
    expect(await row.textContent()).toContain('To Do');
    expect(await links(a)).toEqual([`is blocked by ${b}`]);
    expect(await links(b)).toEqual([`blocks ${a}`]);

    // the same link again: 422 at the ticket field, what was typed kept
    await linkForm.getByLabel('Relation').selectOption('is blocked by');
    await linkForm.getByLabel('Ticket key').fill(b.toLowerCase());
    await linkForm.getByRole('button', { name: 'Add link' }).click();
    const key = page.getByRole('form', { name: 'Link to another ticket' }).getByLabel('Ticket key');
    await expect.poll(() => key.getAttribute('aria-invalid')).toBe('true');
    expect(await key.inputValue()).toBe(b.toLowerCase());
    expect(await page.getByRole('form', { name: 'Link to another ticket' }).getByLabel('Relation').inputValue()).toBe('is blocked by');
    expect(await page.locator('#field-ticket-error').textContent()).toContain(`${a} already is blocked by ${b}`);
    await expectAccessible(page, 'Links section with a refused link');
    expect(await links(a)).toEqual([`is blocked by ${b}`]);

    await page.getByRole('button', { name: `Remove link: is blocked by ${b}` }).click();
    await expect.poll(() => page.getByText('No links', { exact: true }).count()).toBe(1);
    expect(await stayedOpen(page)).toBe(true);
    expect(await links(a)).toEqual([]);
    expect(await links(b)).toEqual([]);
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });
});

describe('link a ticket without JavaScript: POST, redirect, the page again', () => {
  it('adds "relates to" with a message, and a link to itself comes back at the field', async () => {
    const [a, b] = [await ticket('Write the notes'), await ticket('Read the notes')];
    const { context, page } = await asLee(a, false);
    const linkForm = () => page.getByRole('form', { name: 'Link to another ticket' });

    await linkForm().getByLabel('Relation').selectOption('relates to');
    await linkForm().getByLabel('Ticket key').fill(a);
    await linkForm().getByRole('button', { name: 'Add link' }).click();
    await page.waitForURL(new URL(`/browse/${a}/links`, service.url).href);
    expect(await linkForm().getByLabel('Ticket key').inputValue()).toBe(a);
    expect(await linkForm().getByLabel('Ticket key').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#field-ticket-error').textContent()).toContain(`${a} cannot be linked to itself`);

    await linkForm().getByLabel('Ticket key').fill(b);
    await linkForm().getByRole('button', { name: 'Add link' }).click();
    await page.waitForURL(new URL(`/browse/${a}#links-section`, service.url).href);
    expect(await page.getByRole('status').first().textContent()).toContain(`${a} now relates to ${b}`);
    expect(await links(a)).toEqual([`relates to ${b}`]);
    expect(await links(b)).toEqual([`relates to ${a}`]);

    await page.getByRole('button', { name: `Remove link: relates to ${b}` }).click();
    await page.waitForURL(new URL(`/browse/${a}#links-section`, service.url).href);
    expect(await page.getByRole('status').first().textContent()).toContain(`${a} no longer relates to ${b}`);
    expect(await links(b)).toEqual([]);
    await context.close();
  });
});
