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
    expect(problems).toEqual([]);
    await context.close();
  });
});
