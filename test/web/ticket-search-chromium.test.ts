import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { send, startListeningService, workspaceWithDevTwo } from '../oauth/support.ts';
import { CORE_SCRUM_BOARD } from './board-work-drag.ts';
import { closeChromium, expectAccessible, launchChromium, logIn } from './browser.ts';

// A lead finds tickets with the search page's filters and a sort, shares the address, and changes
// several tickets at once: each through the operation the API uses for one ticket, a refused one
// listed with its reason. The page is the way in; the REST API is the witness.

/** The platform fixture with one more project, SIDE, where Lee only looks on (Viewer): what he may not transition. */
function workspaceWithSide(): string {
  const text = workspaceWithDevTwo();
  const hidden = '  - key: HIDE\n';
  if (!text.includes(hidden)) throw new Error('the fixture no longer lists HIDE as expected');
  const side = `  - key: SIDE
    name: Side project
    kind: business
    workflow: Simple
    ticket_types: [Task]
    roles:
      - { role: Lead, members: [ada@example.com] }
      - { role: Viewer, members: [lee@example.com] }
`;
  return text.replace(hidden, side + hidden) + CORE_SCRUM_BOARD;
}

// each rule is several pages in a row
vi.setConfig({ testTimeout: 90_000 });

let service: TestService;
let browser: Browser;
let lee: string;
let ada: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: workspaceWithSide() });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
  ada = await service.token('ada@example.com', 'write', 'Witness');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const apiAs = async (token: string, method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, ...(json === undefined ? {} : { json }) });
/** The witness: what the administrator reads through the REST API. */
const api = async (path: string) => {
  const answer = await apiAs(ada, 'GET', path);
  expect(answer.status).toBe(200);
  return answer.json;
};

async function ticket(token: string, project: string, summary: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await apiAs(token, 'POST', '/tickets', { project, summary, ...extra });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

const asLee = (path: string, javaScript = true) => logIn(browser, service.url, 'lee@example.com', 'lee-password', path, { javaScript });
const rowKeys = (page: Page) =>
  page.locator('#ticket-results-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stayedOpen: true }));
const stayedOpen = (page: Page) => page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen === true);
const report = (page: Page, list: 'Changed' | 'Refused') =>
  page
    .getByRole('region', { name: 'What the bulk change did' })
    .getByRole('list')
    .nth(list === 'Changed' ? 0 : 1)
    .getByRole('listitem')
    .allTextContents();

/** How many entries of a kind the ticket page's History lists as done in the browser. */
async function historyEntries(page: Page, key: string, words: string): Promise<number> {
  await page.goto(new URL(`/browse/${key}`, service.url).href);
  const entries = await page.getByRole('region', { name: 'History' }).getByRole('listitem').allTextContents();
  return entries.filter((e) => e.includes(words) && e.includes('in the browser')).length;
}

describe('search with filters and a sort: the address is the search', () => {
  it('finds the tickets GET /tickets finds, and the shared address finds them again in another browser', async () => {
    const keys = [
      await ticket(lee, 'CORE', 'Heron feeder low', { type: 'Bug', labels: ['heron'], priority: 'Low' }),
      await ticket(lee, 'CORE', 'Heron feeder high', { type: 'Bug', labels: ['heron'], priority: 'High' }),
      await ticket(lee, 'CORE', 'Heron task, not a bug', { type: 'Task', labels: ['heron'] }),
    ];
    const { context, page, problems } = await asLee('/tickets');
    await expectAccessible(page, 'ticket search, no filters');
    await page.getByLabel('Label (optional)', { exact: true }).fill('heron');
    await page.getByLabel('Type', { exact: true }).selectOption('Bug');
    await page.getByLabel('Status', { exact: true }).selectOption('open');
    await page.getByLabel('Sort by').selectOption('priority');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/label=heron/);
    const shared = page.url();
    expect(new URL(shared).searchParams.get('sort')).toBe('priority');
    const found = await api('/tickets?label=heron&type=Bug&status=open&sort=priority');
    expect(found.tickets.map((t: { key: string }) => t.key)).toEqual([keys[1], keys[0]]);
    expect(await rowKeys(page)).toEqual([keys[1], keys[0]]);
    await expectAccessible(page, 'ticket search with filters');
    expect(problems).toEqual([]);
    await context.close();

    // the address opened in another context: the same list, the filters shown as they were
    const other = await asLee(new URL(shared).pathname + new URL(shared).search);
    expect(await rowKeys(other.page)).toEqual([keys[1], keys[0]]);
    expect(await other.page.getByLabel('Label (optional)', { exact: true }).inputValue()).toBe('heron');
    expect(await other.page.getByLabel('Sort by').inputValue()).toBe('priority');
    await other.context.close();
  });

  it('says a filter that names nobody at its field, keeping it, and an empty result with what to do', async () => {
    const { context, page } = await asLee('/tickets?assignee=Nobody%20Known');
    const assignee = page.getByLabel('Assignee (optional)', { exact: true });
    expect(await assignee.inputValue()).toBe('Nobody Known');
    expect(await assignee.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'ticket search with a refused filter');
    await page.goto(new URL('/tickets?query=zzyzx', service.url).href);
    await expect.poll(() => page.getByText('No ticket you can see matches these filters.').count()).toBe(1);
    await expectAccessible(page, 'ticket search with nothing found');
    await context.close();
  });
});

describe('bulk change with htmx: each ticket through its own operation, a refused one listed with its reason', () => {
  it('transitions, assigns, labels and moves to a sprint the selected tickets', async () => {
    const mine = [
      await ticket(lee, 'CORE', 'Puffin one', { labels: ['puffin'] }),
      await ticket(lee, 'CORE', 'Puffin two', { labels: ['puffin'] }),
    ];
    // a ticket Lee may see but not transition (Viewer on SIDE)
    const theirs = await ticket(ada, 'SIDE', 'Puffin on the side', { labels: ['puffin'] });
    expect((await apiAs(lee, 'POST', '/boards/1/sprints', { name: 'Puffin sprint' })).status).toBe(201);

    const { context, page, problems } = await asLee('/tickets?label=puffin&sort=key');
    expect(await rowKeys(page)).toEqual([...mine, theirs]);
    await page.getByRole('link', { name: 'Select all on this page' }).click();
    await page.waitForURL(/select=all/);
    for (const key of [...mine, theirs]) expect(await page.getByRole('checkbox', { name: `Select ${key}` }).isChecked()).toBe(true);
    await expectAccessible(page, 'ticket search with every ticket selected');

    // transition: two taken, the SIDE ticket refused with the ApiError's reason
    await markPage(page);
    await page.getByLabel('Transition', { exact: true }).selectOption('Start');
    await page.getByRole('button', { name: 'Take transition' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'What the bulk change did' }).count()).toBe(1);
    expect(await stayedOpen(page)).toBe(true);
    const changed = await report(page, 'Changed');
    expect(changed.map((line) => line.split(':')[0])).toEqual(mine);
    expect(changed[0]).toContain('In Progress');
    const refused = await report(page, 'Refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain(theirs);
    const asLeeDirectly = await apiAs(lee, 'POST', `/tickets/${theirs}/transitions`, { transition: 'Start' });
    expect(asLeeDirectly.status).toBe(403);
    expect(refused[0]).toContain(asLeeDirectly.json.error.message);
    await expectAccessible(page, 'ticket search with a bulk change’s report');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'ticket search with a bulk change’s report, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    for (const key of mine) expect((await api(`/tickets/${key}`)).status.name).toBe('In Progress');
    expect((await api(`/tickets/${theirs}`)).status.name).toBe('To Do');

    // assign both of Lee's to Dev One
    for (const key of mine) await page.getByRole('checkbox', { name: `Select ${key}` }).check();
    await page.getByLabel('Assign to').selectOption({ label: 'Dev One' });
    await page.getByRole('button', { name: 'Assign' }).click();
    await expect.poll(async () => (await report(page, 'Changed')).join(' ')).toContain('assigned to Dev One');
    for (const key of mine) expect((await api(`/tickets/${key}`)).assignee?.name).toBe('Dev One');

    // add a label, keeping the ones they had
    for (const key of mine) await page.getByRole('checkbox', { name: `Select ${key}` }).check();
    await page.getByLabel('Labels to add').fill('Reviewed');
    await page.getByRole('button', { name: 'Add labels' }).click();
    await expect.poll(async () => (await report(page, 'Changed')).join(' ')).toContain('labels now puffin, reviewed');
    for (const key of mine) expect((await api(`/tickets/${key}`)).labels).toEqual(['puffin', 'reviewed']);

    // move to the board's sprint
    for (const key of mine) await page.getByRole('checkbox', { name: `Select ${key}` }).check();
    await page.getByLabel('Sprint', { exact: true }).selectOption({ label: 'Core scrum: Puffin sprint' });
    await page.getByRole('button', { name: 'Move to sprint' }).click();
    await expect.poll(async () => (await report(page, 'Changed')).join(' ')).toContain('moved to Puffin sprint');
    const backlog = await api('/boards/1/backlog');
    const sprint = (backlog.sprints as { name: string; tickets: { key: string }[] }[]).find((s) => s.name === 'Puffin sprint');
    expect(sprint?.tickets.map((t) => t.key)).toEqual(mine);
    expect(await stayedOpen(page)).toBe(true);
    expect(problems).toEqual([]);

    // each ticket's history holds its own entry for each change, done in the browser
    for (const key of mine) {
      expect(await historyEntries(page, key, 'moved the ticket through its workflow')).toBe(1);
      expect(await historyEntries(page, key, 'assigned the ticket')).toBe(1);
      expect(await historyEntries(page, key, 'moved the ticket to another sprint')).toBe(1);
    }
    expect(await historyEntries(page, theirs, 'moved the ticket through its workflow')).toBe(0);
    await context.close();
  });
});

describe('bulk change without JavaScript: POST, redirect, and the report on the search page', () => {
  it('adds a label to every ticket on the page and says so, ticket by ticket', async () => {
    const keys = [
      await ticket(lee, 'CORE', 'Gannet one', { labels: ['gannet'] }),
      await ticket(lee, 'CORE', 'Gannet two', { labels: ['gannet'] }),
    ];
    const { context, page } = await asLee('/tickets?label=gannet&sort=key', false);
    await page.getByRole('link', { name: 'Select all on this page' }).click();
    await page.getByLabel('Labels to add').fill('seabird');
    await page.getByRole('button', { name: 'Add labels' }).click();
    await page.waitForURL(/\/tickets\?label=gannet&sort=key$/);
    expect(await page.getByRole('status').first().textContent()).toContain('Changed 2 tickets.');
    expect((await report(page, 'Changed')).map((line) => line.split(':')[0])).toEqual(keys);
    for (const key of keys) expect((await api(`/tickets/${key}`)).labels).toEqual(['gannet', 'seabird']);
    await context.close();
  });
});
