import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { send, startListeningService, workspaceWithDevTwo } from '../oauth/support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn } from './browser.ts';
import { CORE_SCRUM_BOARD as BOARDS, card, dragCard, drop, list } from './board-work-drag.ts';

// Planning a sprint in the browser: tickets dragged (or sent with "Move to…") between the backlog
// and sprints, a sprint created, started, completed and deleted — each the API's own operation,
// its outcome read back through the REST API.

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

interface SprintShown {
  id: string;
  name: string;
  state: string;
  goal: string | null;
  end_at: string | null;
  tickets: { key: string }[];
}

/** The keys of a sprint's tickets (or the backlog's), in rank order, as the API lists them. */
async function keysIn(list: string): Promise<string[]> {
  const backlog = await api('GET', '/boards/1/backlog');
  if (list === 'Backlog') return (backlog.json.backlog as { key: string }[]).map((t) => t.key);
  return ((backlog.json.sprints as SprintShown[]).find((s) => s.name === list)?.tickets ?? []).map((t) => t.key);
}

async function sprintNamed(name: string): Promise<SprintShown | undefined> {
  return ((await api('GET', '/boards/1/sprints')).json.sprints as SprintShown[]).find((s) => s.name === name);
}

async function open(path: string, options: { javaScript?: boolean; who?: 'lee' | 'dev2' } = {}) {
  const [email, password] = options.who === 'dev2' ? ['dev2@example.com', 'dev2-password'] : ['lee@example.com', 'lee-password'];
  const visit = await logIn(browser, service.url, email, password, path, { javaScript: options.javaScript ?? true });
  if (options.javaScript ?? true) await visit.page.emulateMedia({ reducedMotion: 'reduce' });
  visit.page.setDefaultTimeout(15_000);
  // room for every list on the screen: a pointer near its edge would scroll the page while dragging
  await visit.page.setViewportSize({ width: 1280, height: 1800 });
  return visit;
}

/** "Move to…" on a card from the keyboard: open it, choose the place, send it. */
async function moveWithKeyboard(page: Page, key: string, place: string): Promise<void> {
  await card(page, key)
    .getByRole('link', { name: `Move to… ${key}`, exact: true })
    .focus();
  await page.keyboard.press('Enter');
  // the form comes in the link's place, its select focused
  const select = card(page, key).getByLabel(`Move ${key} to`);
  await expect.poll(() => select.evaluate((el) => el === document.activeElement)).toBe(true);
  await select.selectOption({ label: place });
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page
    .getByRole('status')
    .filter({ hasText: `Moved ${key}` })
    .waitFor();
}

describe('sprints in the browser: plan by dragging on the backlog, start, move cards by drag and keyboard, complete', () => {
  it('takes a sprint from creation to completion, each step seen through the API', async () => {
    const [first, second, third] = [await ticket('Plan me first'), await ticket('Plan me second'), await ticket('Plan me third')];
    const { context, page, problems } = await open('/boards/1');
    await page.getByRole('link', { name: 'Backlog and sprints' }).click();
    await page.getByRole('heading', { name: 'Backlog: Core scrum' }).waitFor();
    await expectAccessible(page, 'backlog page');

    // create
    await page.getByText('Create a sprint').click();
    await page.getByLabel('Name').fill('Sprint 1');
    await page.getByRole('button', { name: 'Create sprint' }).click();
    await page.getByRole('status').filter({ hasText: 'Created sprint Sprint 1.' }).waitFor();
    expect((await sprintNamed('Sprint 1'))?.state).toBe('future');
    await page.emulateMedia({ reducedMotion: 'reduce' });

    // plan by dragging: two tickets into the sprint, then the second above the first
    await drop(page, () => dragCard(page, first, list(page, 'Sprint 1')));
    await expect.poll(() => keysIn('Sprint 1')).toEqual([first]);
    await drop(page, () => dragCard(page, second, list(page, 'Sprint 1')));
    await expect.poll(() => keysIn('Sprint 1')).toEqual([first, second]);
    await drop(page, () => dragCard(page, second, card(page, first), 'top'));
    await expect.poll(() => keysIn('Sprint 1')).toEqual([second, first]);
    // and one from the keyboard
    await moveWithKeyboard(page, third, 'Sprint 1: at the bottom');
    expect(await keysIn('Sprint 1')).toEqual([second, first, third]);
    expect(await keysIn('Backlog')).not.toContain(third);
    await expectAccessible(page, 'backlog page, planned');

    // start: the end date is needed (422 at its field), the goal goes with it
    await page.getByRole('link', { name: 'Start sprint Sprint 1…' }).click();
    await expectAccessible(page, 'start sprint page');
    await page.getByLabel('Goal').fill('Ship the planned three');
    await page.getByRole('button', { name: 'Start sprint' }).click();
    await page.getByRole('heading', { name: 'Start sprint Sprint 1' }).waitFor();
    expect(await page.getByLabel('End date').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Goal').inputValue()).toBe('Ship the planned three');
    expect((await sprintNamed('Sprint 1'))?.state).toBe('future');
    await expectAccessible(page, 'start sprint page with its error');
    await page.getByLabel('End date').fill('2031-03-14');
    await page.getByRole('button', { name: 'Start sprint' }).click();
    await page.waitForURL((url) => url.pathname === '/boards/1');
    await page.getByRole('status').filter({ hasText: 'Started sprint Sprint 1' }).waitFor();
    const started = await sprintNamed('Sprint 1');
    expect([started?.state, started?.goal, started?.end_at?.slice(0, 10)]).toEqual(['active', 'Ship the planned three', '2031-03-14']);

    // the board shows the sprint: a card by drag, another by keyboard
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await page.locator('#sprint-name').textContent()).toBe('Sprint 1');
    await drop(page, () => dragCard(page, first, list(page, 'Doing')));
    await expect.poll(async () => (await api('GET', `/tickets/${first}`)).json.status.name).toBe('In Progress');
    await moveWithKeyboard(page, second, 'Doing: at the bottom');
    expect((await api('GET', `/tickets/${second}`)).json.status.name).toBe('In Progress');
    expect((await api('POST', `/tickets/${second}/transitions`, { transition: 'Finish' })).status).toBe(200);
    await expectAccessible(page, 'board showing the sprint');

    // complete: the done ticket stays, the unfinished go to the backlog
    await page.goto(new URL('/boards/1/backlog', service.url).href);
    await page.getByRole('link', { name: 'Complete sprint Sprint 1…' }).click();
    await page.getByText('1 done tickets stay in the sprint; 2 unfinished tickets move on.').waitFor();
    await expectAccessible(page, 'complete sprint page');
    await page.getByLabel('Unfinished tickets go to').selectOption({ label: 'The backlog' });
    await page.getByRole('button', { name: 'Complete sprint' }).click();
    await page.getByRole('status').filter({ hasText: 'Completed sprint Sprint 1; 2 unfinished tickets moved on.' }).waitFor();
    expect((await sprintNamed('Sprint 1'))?.state).toBe('closed');
    const backlog = await keysIn('Backlog');
    expect(backlog).toEqual(expect.arrayContaining([first, third]));
    expect(backlog).not.toContain(second);
    // the start refused for its end date answered 422: no other problem
    expect(problems.filter((p) => !p.includes('status of 422'))).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('sprints: a future sprint is deleted and its tickets go back to the backlog (spec 3.1)', () => {
  it('deletes it from the backlog page', async () => {
    const key = await ticket('Back to the backlog');
    expect((await api('POST', '/boards/1/sprints', { name: 'Doomed' })).status).toBe(201);
    expect((await api('POST', '/boards/1/backlog/moves', { key, sprint: 'Doomed' })).status).toBe(200);
    const { context, page } = await open('/boards/1/backlog');
    await page.getByRole('button', { name: 'Delete sprint Doomed' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted sprint Doomed' }).waitFor();
    expect(await sprintNamed('Doomed')).toBeUndefined();
    expect(await keysIn('Backlog')).toContain(key);
    await context.close();
  });
});

describe('sprints: a refused sprint form shows the reason at its field, with what was typed', () => {
  it('keeps the name and says the end date is before the start date, creating nothing', async () => {
    const { context, page } = await open('/boards/1/backlog', { javaScript: false });
    await page.getByText('Create a sprint').click();
    await page.getByLabel('Name').fill('Backwards');
    await page.getByLabel('Start date').fill('2031-05-10');
    await page.getByLabel('End date').fill('2031-05-01');
    await page.getByRole('button', { name: 'Create sprint' }).click();
    expect(await page.getByLabel('End date').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#field-end_date-error').textContent()).toContain('before the start date');
    expect(await page.getByLabel('Name').inputValue()).toBe('Backwards');
    expect(await sprintNamed('Backwards')).toBeUndefined();
    await context.close();
  });

  it('says a second sprint cannot start while one is active (409 sprint_active), leaving it future', async () => {
    expect((await api('POST', '/boards/1/sprints', { name: 'Running' })).status).toBe(201);
    expect((await api('POST', '/boards/1/sprints/Running/start', { end_date: '2031-06-01' })).status).toBe(200);
    expect((await api('POST', '/boards/1/sprints', { name: 'Waiting its turn' })).status).toBe(201);
    const waiting = await sprintNamed('Waiting its turn');
    const { context, page } = await open(`/boards/1/sprints/${waiting!.id}/start`);
    await page.getByLabel('End date').fill('2031-07-01');
    await page.getByRole('button', { name: 'Start sprint' }).click();
    await page.getByRole('alert').filter({ hasText: 'active' }).waitFor();
    expect((await sprintNamed('Waiting its turn'))?.state).toBe('future');
    await expectAccessible(page, 'start sprint page refused');
    await context.close();
    expect((await api('POST', '/boards/1/sprints/Running/complete', {})).status).toBe(200);
  });
});

describe('backlog: "Move to…" works without JavaScript, and only sprint managers see the sprint forms', () => {
  it('moves a ticket into a sprint with a plain form post', async () => {
    const key = await ticket('Planned without script');
    expect((await api('POST', '/boards/1/sprints', { name: 'Plain' })).status).toBe(201);
    const { context, page } = await open('/boards/1/backlog', { javaScript: false });
    await card(page, key)
      .getByRole('link', { name: `Move to… ${key}`, exact: true })
      .click();
    await page.getByRole('heading', { name: `Move ${key}`, exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/boards/1/backlog/moves/new');
    await page.getByLabel(`Move ${key} to`).selectOption({ label: 'Plain: at the bottom' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/boards/1/backlog');
    expect(await page.getByRole('status').textContent()).toContain(`Moved ${key}`);
    expect(await keysIn('Plain')).toEqual([key]);
    await context.close();
  });

  it('shows a developer the lists but no create, start, complete or delete', async () => {
    const key = await ticket('Seen by a developer');
    const { context, page } = await open('/boards/1/backlog', { who: 'dev2' });
    await page.getByRole('heading', { name: 'Backlog: Core scrum' }).waitFor();
    expect(await page.getByText('Create a sprint').count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Start sprint/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete sprint/ }).count()).toBe(0);
    await expectAccessible(page, 'backlog page of a developer');
    // a ticket's "Move to…" page, as the link leads without script (axe needs script to run)
    await page.goto(`${service.url}/boards/1/backlog/moves/new?key=${key}`);
    await page.getByRole('heading', { name: `Move ${key}`, exact: true }).waitFor();
    await expectAccessible(page, 'move page of a backlog ticket');
    await context.close();
  });
});
