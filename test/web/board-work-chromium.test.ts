import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { send, startListeningService, workspaceWithDevTwo } from '../oauth/support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn } from './browser.ts';
import { card, dragCard, drop, list } from './board-work-drag.ts';

// A card moved on a board page — dropped in a column, or sent with its "Move to…" — is the API's
// move_card, one request; what it did is read back through the REST API, as another member sees it.

const BOARDS = `
boards:
  - number: 2
    name: Flow board
    kind: kanban
    projects: [CORE]
    columns:
      - { name: Waiting, statuses: [To Do], max: 1 }
      - { name: Doing, statuses: [In Progress], min: 0 }
      - { name: Finished, statuses: [Done] }
`;

let service: TestService;
let browser: Browser;
let lee: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: workspaceWithDevTwo() + BOARDS });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const api = (method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${lee}` }, ...(json === undefined ? {} : { json }) });

async function ticket(summary: string): Promise<string> {
  const created = await api('POST', '/tickets', { project: 'CORE', summary });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

/** The column a ticket is in, and its place there, as the API shows board 2. */
async function whereIs(key: string): Promise<{ column: string; keys: string[] } | null> {
  const board = await api('GET', '/boards/2');
  for (const column of board.json.columns as { name: string; tickets: { key: string }[] }[]) {
    const keys = column.tickets.map((t) => t.key);
    if (keys.includes(key)) return { column: column.name, keys };
  }
  return null;
}

async function openBoard(path = '/boards/2', javaScript = true) {
  const visit = await logIn(browser, service.url, 'lee@example.com', 'lee-password', path, { javaScript });
  if (javaScript) await visit.page.emulateMedia({ reducedMotion: 'reduce' });
  visit.page.setDefaultTimeout(15_000);
  // room for every list on the screen: a pointer near its edge would scroll the page while dragging
  await visit.page.setViewportSize({ width: 1280, height: 1800 });
  return visit;
}

describe('board: a card dropped in another column takes the transition there (move_card)', () => {
  it('moves the card from Waiting to Doing with one request, seen through the API', async () => {
    const key = await ticket('Dragged to Doing');
    const { context, page, problems } = await openBoard();
    await expectAccessible(page, 'board page');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
    await drop(page, () => dragCard(page, key, list(page, 'Doing')));
    await expect.poll(async () => (await whereIs(key))?.column).toBe('Doing');
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Moved ${key}`);
    expect(posts).toEqual(['/boards/2/moves']);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('board: a drop whose transition asks for something opens its screen; nothing changes until it is answered', () => {
  it('asks for the resolution of Finish, then moves the card to Finished with the one chosen', async () => {
    const key = await ticket('Dropped in Finished');
    const { context, page, problems } = await openBoard();
    await dragCard(page, key, list(page, 'Finished'));
    const screen = page.getByRole('dialog', { name: `Move ${key} to Finished` });
    await screen.waitFor();
    // the card went back where it was: nothing changed yet
    expect(await list(page, 'Waiting').getByRole('link', { name: key, exact: true }).count()).toBe(1);
    expect((await whereIs(key))?.column).toBe('Waiting');
    await expectAccessible(page, 'transition screen');
    await screen.getByLabel('Resolution').selectOption("Won't Do");
    await screen.getByLabel('Comment').fill('Not needed after all.');
    await screen.getByRole('button', { name: 'Move to Finished' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Moved ${key}` })
      .waitFor();
    const moved = await api('GET', `/tickets/${key}`);
    expect(moved.json.status.name).toBe('Done');
    expect(moved.json.resolution).toBe("Won't Do");
    expect(moved.json.comments.map((c: { body: { text?: string; markdown?: string } }) => JSON.stringify(c.body))).toEqual([
      expect.stringContaining('Not needed after all.'),
    ]);
    expect((await whereIs(key))?.column).toBe('Finished');
    // the drop's answer was the 422 that carried the screen: no other problem
    expect(problems.filter((p) => !p.includes('status of 422'))).toEqual([]);
    await context.close();
  });
});

describe('board: a refused move snaps back with the reason, and changes nothing', () => {
  it('puts a done card dropped in Doing back in Finished, saying no transition leads there', async () => {
    const key = await ticket('Done and staying');
    expect((await api('POST', `/tickets/${key}/transitions`, { transition: 'Finish' })).status).toBe(200);
    const { context, page } = await openBoard();
    await dragCard(page, key, list(page, 'Doing'));
    const alert = page.getByRole('alert').filter({ hasText: 'no transition' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(key);
    expect(await list(page, 'Finished').getByRole('link', { name: key, exact: true }).count()).toBe(1);
    expect(await list(page, 'Doing').getByRole('link', { name: key, exact: true }).count()).toBe(0);
    expect((await whereIs(key))?.column).toBe('Finished');
    await expectAccessible(page, 'board after a refused move');
    await context.close();
  });
});

describe('board: a card dropped within its column is ranked there (ticket:edit)', () => {
  it('puts the second card above the first, as the API then lists them', async () => {
    const first = await ticket('Ranked first');
    const second = await ticket('Ranked second');
    const before = (await whereIs(second))!.keys;
    expect(before.indexOf(second)).toBeGreaterThan(before.indexOf(first));
    const { context, page } = await openBoard();
    await drop(page, () => dragCard(page, second, card(page, first), 'top'));
    await expect
      .poll(async () => {
        const keys = (await whereIs(second))!.keys;
        return keys.indexOf(second) < keys.indexOf(first);
      })
      .toBe(true);
    const keys = (await whereIs(second))!.keys;
    expect(keys.indexOf(first) - keys.indexOf(second)).toBe(1);
    await context.close();
  });
});

describe('board: "Move to…" on a card moves it from the keyboard', () => {
  it('brings its form in place with Enter, the select focused, and moves the card with one post', async () => {
    const key = await ticket('Moved from the keyboard');
    const { context, page, problems } = await openBoard();
    // each card carries only the link, named by its card; the form comes when asked
    expect(await card(page, key).getByRole('combobox').count()).toBe(0);
    await card(page, key)
      .getByRole('link', { name: `Move to… ${key}`, exact: true })
      .focus();
    await page.keyboard.press('Enter');
    const select = card(page, key).getByLabel(`Move ${key} to`);
    await expect.poll(() => select.evaluate((el) => el === document.activeElement)).toBe(true);
    await select.selectOption({ label: 'Doing: at the bottom' });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Moved ${key}` })
      .waitFor();
    const where = await whereIs(key);
    expect(where?.column).toBe('Doing');
    expect(where?.keys.at(-1)).toBe(key);
    await expectAccessible(page, 'board after a keyboard move');
    // the page the link leads to without script (axe needs script to run)
    await page.goto(`${service.url}/boards/2/moves/new?key=${key}`);
    await page.getByRole('heading', { name: `Move ${key}`, exact: true }).waitFor();
    await expectAccessible(page, 'move page of a card');
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** Without script, a card's "Move to…" is a link to a page of its own with the form. */
async function openMovePage(page: Page, key: string): Promise<void> {
  await card(page, key)
    .getByRole('link', { name: `Move to… ${key}`, exact: true })
    .click();
  await page.getByRole('heading', { name: `Move ${key}`, exact: true }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/boards/2/moves/new');
}

describe('board: "Move to…" works without JavaScript, as a plain form post', () => {
  it('moves a card to the top of another column and comes back to the board saying so', async () => {
    const key = await ticket('Moved without script');
    await api('POST', `/tickets/${await ticket('Already doing')}/transitions`, { transition: 'Start' });
    const { context, page } = await openBoard('/boards/2', false);
    await openMovePage(page, key);
    await page.getByLabel(`Move ${key} to`).selectOption({ label: 'Doing: at the top' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/boards/2');
    expect(await page.getByRole('status').textContent()).toContain(`Moved ${key}; its status is In Progress`);
    const where = await whereIs(key);
    expect(where?.column).toBe('Doing');
    expect(where?.keys[0]).toBe(key);
    await context.close();
  });

  it("shows the transition's screen as a page when the move asks for a resolution, and moves once answered", async () => {
    const key = await ticket('Finished without script');
    const { context, page } = await openBoard('/boards/2', false);
    await openMovePage(page, key);
    await page.getByLabel(`Move ${key} to`).selectOption({ label: 'Finished: at the bottom' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByRole('heading', { name: `Move ${key} to Finished` }).waitFor();
    expect((await whereIs(key))?.column).toBe('Waiting');
    // sent without a resolution: the reason at its field, nothing changed
    await page.getByRole('button', { name: 'Move to Finished' }).click();
    expect(await page.getByLabel('Resolution').getAttribute('aria-invalid')).toBe('true');
    expect((await whereIs(key))?.column).toBe('Waiting');
    await page.getByLabel('Resolution').selectOption('Done');
    await page.getByRole('button', { name: 'Move to Finished' }).click();
    await page.waitForURL((url) => url.pathname === '/boards/2');
    const moved = await api('GET', `/tickets/${key}`);
    expect([moved.json.status.name, moved.json.resolution]).toEqual(['Done', 'Done']);
    await context.close();
  });
});

describe('board: work-in-progress limits are shown on their columns (spec 2.5: shown, not enforced)', () => {
  it('says in words that a column holds more cards than its maximum', async () => {
    await ticket('Over the limit one');
    await ticket('Over the limit two');
    const { context, page } = await openBoard();
    const waiting = page.getByRole('region', { name: 'Waiting' });
    expect(await waiting.getByText('Over its limit:').count()).toBe(1);
    expect(await waiting.textContent()).toMatch(/\d+ cards, at most 1/);
    expect(
      await page
        .getByRole('region', { name: 'Finished' })
        .getByText(/^\d+ cards?$/)
        .count(),
    ).toBe(1);
    await expectAccessible(page, 'board with a column over its limit');
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await expectAccessible(page, 'board with a column over its limit, dark');
    await context.close();
  });
});
