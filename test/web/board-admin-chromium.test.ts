import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardsWorkspaceWithPasswords } from '../boards/board-admin-support.ts';
import type { TestService } from '../helpers/service.ts';
import { send, startListeningService } from '../oauth/support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn } from './browser.ts';

// Board administration in the browser (spec 1): a project lead creates a scrum board, gives it its
// own columns and a swimlane on its settings page, and the API shows the board as they left it.

let service: TestService;
let browser: Browser;
let lee: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: boardsWorkspaceWithPasswords() });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const api = (method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${lee}` }, ...(json === undefined ? {} : { json }) });

describe('a project lead creates a scrum board with its own columns and a swimlane, in the browser', () => {
  it('creates it, renames and adds columns, maps statuses, picks swimlanes by assignee, and the API shows it so', async () => {
    const created = await api('POST', '/tickets', { project: 'CORE', summary: 'Card in a lane', assignee: 'me' });
    expect(created.status).toBe(201);
    const { context, page, problems } = await logIn(browser, service.url, 'lee@example.com', 'lee-password', '/boards');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.getByRole('link', { name: 'Create a board' }).click();
    await expectAccessible(page, 'create a board');
    await page.getByLabel('Board name').fill('Team scrum');
    await page.getByLabel('Kind').selectOption('scrum');
    await page.getByLabel('Projects').fill('CORE');
    await page.getByRole('button', { name: 'Create board' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Settings of Team scrum' }).count()).toBe(1);
    await expectAccessible(page, 'board settings');
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await expectAccessible(page, 'board settings, dark');
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    expect(await page.locator('#unmapped-statuses').textContent()).toContain('Parked');

    await page.getByLabel('Name of In Progress').fill('Doing');
    await page.getByRole('group', { name: 'Statuses of In Progress' }).getByLabel('Review').uncheck();
    await page.getByLabel('Work-in-progress maximum of In Progress').fill('2');
    await page.getByLabel('Name of the new column').fill('Review');
    await page.getByRole('group', { name: 'Statuses of the new column' }).getByLabel('Review').check();
    await page.getByLabel('Swimlanes').selectOption('assignee');
    await page.getByRole('button', { name: 'Save board' }).click();
    await expect.poll(() => page.getByText('Saved the board.').count()).toBe(1);
    await page.getByRole('button', { name: 'Move left: Review' }).click();
    await expect.poll(() => page.getByText('Moved the column Review left.').count()).toBe(1);
    await expectAccessible(page, 'board settings after a change');

    const boards = await api('GET', '/boards');
    const number = (boards.json.boards as { number: number; name: string }[]).find((b) => b.name === 'Team scrum')!.number;
    const board = await api('GET', `/boards/${number}`);
    expect(board.json).toMatchObject({ name: 'Team scrum', kind: 'scrum', projects: ['CORE'] });
    expect(board.json.columns.map((c: { name: string; statuses: string[]; max: number | null }) => [c.name, c.statuses, c.max])).toEqual([
      ['To Do', ['To Do'], null],
      ['Doing', ['In Progress'], 2],
      ['Review', ['Review'], null],
      ['Done', ['Done'], null],
    ]);

    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Team scrum' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /^Assignee: Lee Lead/ }).count()).toBe(1);
    await expectAccessible(page, 'board page with swimlanes');
    expect(await page.getByRole('link', { name: 'Board settings' }).count()).toBe(1);

    // a quick filter: only the cards of the member looking
    expect((await api('POST', '/tickets', { project: 'CORE', summary: 'Nobody’s card' })).status).toBe(201);
    await page.getByRole('link', { name: 'Board settings' }).click();
    await page.getByLabel('Name of the new quick filter').fill('Mine');
    await page.getByLabel('Assignee of the new quick filter').selectOption('me');
    await page.getByRole('button', { name: 'Save board' }).click();
    await expect.poll(() => page.getByText('Saved the board.').count()).toBe(1);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Team scrum' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /^Assignee: Unassigned/ }).count()).toBe(1);
    await page.getByRole('navigation', { name: 'Quick filters' }).getByRole('link', { name: 'Mine' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /^Assignee: Unassigned/ }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: /^Assignee: Lee Lead/ }).count()).toBe(1);
    await expectAccessible(page, 'board page with a quick filter on');
    // the filter narrows the page, not the board: the API still shows both cards
    const cards = (await api('GET', `/boards/${number}`)).json.columns.flatMap((c: { tickets: { summary: string }[] }) =>
      c.tickets.map((t) => t.summary),
    );
    expect(cards.sort()).toEqual(['Card in a lane', 'Nobody’s card']);
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** A sprint run through the API on board 1: two tickets planned, one added after the start, one done. */
async function runSprint(name: string) {
  const key = async (summary: string) => {
    const created = await api('POST', '/tickets', { project: 'CORE', summary });
    expect(created.status).toBe(201);
    return created.json.key as string;
  };
  const [done, open, late] = [await key(`${name}: done`), await key(`${name}: left open`), await key(`${name}: added late`)];
  const active = (await api('GET', '/boards/1/sprints')).json.sprints.find((s: { state: string }) => s.state === 'active');
  if (active) expect((await api('POST', `/boards/1/sprints/${active.id}/complete`, {})).status).toBe(200);
  const sprint = await api('POST', '/boards/1/sprints', { name });
  expect(sprint.status).toBe(201);
  const id = sprint.json.id as string;
  for (const ticket of [done, open]) expect((await api('POST', '/boards/1/backlog/moves', { key: ticket, sprint: id })).status).toBe(200);
  const end = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  expect((await api('POST', `/boards/1/sprints/${id}/start`, { end_date: end })).status).toBe(200);
  expect((await api('POST', '/boards/1/backlog/moves', { key: late, sprint: id })).status).toBe(200);
  expect((await api('POST', `/tickets/${done}/transitions`, { transition: 'Close', resolution: 'Fixed' })).status).toBe(200);
  const completed = await api('POST', `/boards/1/sprints/${id}/complete`, {});
  expect(completed.status).toBe(200);
  return { id, done, open, late, moved: completed.json.moved as string[] };
}

describe("a member reads a closed sprint's report in the browser: burndown with its table, completed and not, scope added", () => {
  it('shows what the API did to the sprint: the done ticket completed, those moved out not completed, the late one added', async () => {
    const run = await runSprint('Report sprint');
    expect(run.moved.sort()).toEqual([run.open, run.late].sort());
    const { context, page, problems } = await logIn(browser, service.url, 'lee@example.com', 'lee-password', '/boards/1?sprint=none');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.getByRole('link', { name: 'Report of Report sprint' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Report of Report sprint' }).count()).toBe(1);
    await expectAccessible(page, 'sprint report');
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await expectAccessible(page, 'sprint report, dark');
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    expect(await page.locator('#sprint-summary').textContent()).toBe(
      '2 tickets when it started; 1 completed, 2 not completed, 1 added after the start, 0 removed.',
    );
    expect(await page.getByRole('img', { name: /^Burndown: tickets not done by day/ }).count()).toBe(1);
    const rows = page.getByRole('table', { name: /^Burndown by day/ }).getByRole('row');
    // the header, then the start's day: two tickets planned and the late one, of which one was done
    expect(await rows.nth(1).getByRole('cell').nth(1).textContent()).toBe('2');
    const keysIn = (id: string) => page.locator(`#${id}`).getByRole('link').allTextContents();
    expect(await keysIn('completed')).toEqual([run.done]);
    expect((await keysIn('not-completed')).sort()).toEqual(run.moved.sort());
    expect(await keysIn('added')).toEqual([run.late]);

    // the API witnesses the same sprint: closed, the done ticket still in it
    const sprints = await api('GET', '/boards/1/sprints');
    expect(sprints.json.sprints.find((s: { id: string }) => s.id === run.id).state).toBe('closed');
    const board = await api('GET', `/boards/1?sprint=${run.id}`);
    expect(board.json.columns.flatMap((c: { tickets: { key: string }[] }) => c.tickets.map((t) => t.key))).toEqual([run.done]);

    await page.getByRole('link', { name: 'Remaining estimate' }).click();
    await expect.poll(() => page.getByRole('img', { name: /^Burndown: remaining estimate by day/ }).count()).toBe(1);
    await expectAccessible(page, 'sprint report by estimate');
    expect(problems).toEqual([]);
    await context.close();
  });
});
