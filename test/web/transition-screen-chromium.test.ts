import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import type { TestService } from '../helpers/service.ts';
import { send, startListeningService } from '../oauth/support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn } from './browser.ts';

// A transition's screen asks what POST /tickets/{key}/transitions takes (spec 4.2): the assignee
// where the screen asks for one, a comment where the member may comment, and the choice of an
// internal note where they may write one — a helpdesk's agents. Taken in Chromium; the REST API
// is the witness.

const WORKSPACE = `
workspace: { name: Desk, rest_api: true, mcp: true, default_priority: Medium, priorities: [High, Medium, Low] }
members:
  - { name: Ada Admin, email: ada@example.com, password: ada-password, admin: true }
  - { name: Hal Agent, email: hal@example.com, password: hal-password }
  - { name: Tia Triage, email: tia@example.com, password: tia-password }
roles:
  - name: Agent
    permissions: [project:view, ticket:create, ticket:edit, ticket:assign, ticket:transition, ticket:comment]
  - name: Triage
    permissions: [project:view, ticket:transition]
workflows:
  - name: Desk
    statuses: [{ name: Waiting, category: todo }, { name: Working, category: in_progress }, { name: Solved, category: done }]
    transitions:
      - { name: Take, from: [Waiting], to: Working, screen: { assignee: true } }
      - { name: Solve, from: any, to: Solved, screen: { resolution: true } }
projects:
  - key: DESK
    name: Service desk
    kind: helpdesk
    workflow: Desk
    ticket_types: [Question]
    resolutions: [{ name: Answered, default: true }]
    roles:
      - { role: Agent, members: [hal@example.com] }
      - { role: Triage, members: [tia@example.com] }
  - key: CODE
    name: Code
    kind: software
    workflow: Desk
    ticket_types: [Task]
    resolutions: [{ name: Done, default: true }]
    roles:
      - { role: Agent, members: [hal@example.com] }
  - key: SIDE
    name: Side desk
    kind: helpdesk
    workflow: Desk
    ticket_types: [Question]
    resolutions: [{ name: Answered, default: true }]
    roles:
      - { role: Agent, members: [hal@example.com] }
`;

vi.setConfig({ testTimeout: 60_000 });

let service: TestService;
let browser: Browser;
let ada: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: WORKSPACE });
  ada = await service.token('ada@example.com', 'write', 'Witness');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const api = async (method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${ada}` }, ...(json === undefined ? {} : { json }) });

async function ticket(project: string): Promise<string> {
  const created = await api('POST', '/tickets', { project, summary: 'Cannot log in' });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

/** The member on the ticket page, then on the screen of its Take transition. */
async function takeScreen(email: string, password: string, key: string, javaScript = true) {
  const visit = await logIn(browser, service.url, email, password, `/browse/${key}`, { javaScript });
  await visit.page.getByRole('link', { name: 'Take…' }).click();
  await visit.page.waitForURL(/\/transition\//);
  return visit;
}

describe('a helpdesk agent takes a ticket with an assignee and an internal note', () => {
  it('asks the assignee, the comment and the internal choice, and the move carries all three', async () => {
    const key = await ticket('DESK');
    const { context, page, problems } = await takeScreen('hal@example.com', 'hal-password', key);
    await expectAccessible(page, 'Take screen of a helpdesk ticket');
    await page.getByLabel('Assignee').selectOption({ label: 'Hal Agent' });
    await page.getByRole('textbox', { name: 'Comment' }).fill('Checking the **account** lock.');
    await page.getByRole('checkbox', { name: 'Internal note: never shown to customers' }).check();
    await page.getByRole('button', { name: 'Take', exact: true }).click();
    await page.waitForURL(new URL(`/browse/${key}`, service.url).href);
    const read = (await api('GET', `/tickets/${key}`)).json;
    expect(read).toMatchObject({ status: { name: 'Working' }, assignee: { name: 'Hal Agent' } });
    expect(read.comments).toMatchObject([
      { body: { text: 'Checking the **account** lock.' }, visibility: 'internal', author: { name: 'Hal Agent' } },
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without JavaScript, leaves the note public when the choice is left off', async () => {
    const key = await ticket('DESK');
    const { context, page } = await takeScreen('hal@example.com', 'hal-password', key, false);
    await page.getByLabel('Assignee').selectOption({ label: 'Tia Triage' });
    await page.getByRole('textbox', { name: 'Comment' }).fill('Over to triage.');
    await page.getByRole('button', { name: 'Take', exact: true }).click();
    await page.waitForURL(new URL(`/browse/${key}`, service.url).href);
    const read = (await api('GET', `/tickets/${key}`)).json;
    expect(read).toMatchObject({ status: { name: 'Working' }, assignee: { name: 'Tia Triage' } });
    expect(read.comments).toMatchObject([{ body: { text: 'Over to triage.' }, visibility: 'public' }]);
    await context.close();
  });
});

describe('the internal choice is offered only where the member may write an internal note', () => {
  it('offers no internal choice on a software project, where the comment is public', async () => {
    const key = await ticket('CODE');
    const { context, page } = await takeScreen('hal@example.com', 'hal-password', key);
    expect(await page.getByRole('checkbox', { name: /Internal note/ }).count()).toBe(0);
    await page.getByRole('textbox', { name: 'Comment' }).fill('Starting.');
    await page.getByRole('button', { name: 'Take', exact: true }).click();
    await page.waitForURL(new URL(`/browse/${key}`, service.url).href);
    expect((await api('GET', `/tickets/${key}`)).json.comments).toMatchObject([{ body: { text: 'Starting.' }, visibility: 'public' }]);
    await context.close();
  });

  it('asks a member who may move but not comment only for the assignee', async () => {
    const key = await ticket('DESK');
    const { context, page } = await takeScreen('tia@example.com', 'tia-password', key);
    await expectAccessible(page, 'Take screen without a comment');
    expect(await page.getByRole('textbox', { name: 'Comment' }).count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: /Internal note/ }).count()).toBe(0);
    await page.getByLabel('Assignee').selectOption({ label: 'Tia Triage' });
    await page.getByRole('button', { name: 'Take', exact: true }).click();
    await page.waitForURL(new URL(`/browse/${key}`, service.url).href);
    const read = (await api('GET', `/tickets/${key}`)).json;
    expect(read).toMatchObject({ status: { name: 'Working' }, assignee: { name: 'Tia Triage' }, comments: [] });
    await context.close();
  });
});

describe("the ticket page's comment form follows the same rules as the screens", () => {
  const commentForm = (page: import('playwright-core').Page) => page.getByRole('form', { name: 'Add a comment' });

  it('is not offered to a member who may not comment', async () => {
    const key = await ticket('DESK');
    const { context, page } = await logIn(browser, service.url, 'tia@example.com', 'tia-password', `/browse/${key}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Comments' }).count()).toBe(1);
    expect(await commentForm(page).count()).toBe(0);
    await context.close();
  });

  it('offers the internal choice to a helpdesk agent, and the note it adds is internal', async () => {
    const key = await ticket('DESK');
    const { context, page, problems } = await logIn(browser, service.url, 'hal@example.com', 'hal-password', `/browse/${key}`);
    const form = commentForm(page);
    await form.getByRole('textbox', { name: 'Comment' }).fill('Seen this before.');
    await form.getByRole('checkbox', { name: 'Internal note: never shown to customers' }).check();
    await form.getByRole('button', { name: 'Add comment' }).click();
    await expect
      .poll(async () => (await api('GET', `/tickets/${key}`)).json.comments)
      .toMatchObject([{ body: { text: 'Seen this before.' }, visibility: 'internal' }]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('offers no internal choice on a software project', async () => {
    const key = await ticket('CODE');
    const { context, page } = await logIn(browser, service.url, 'hal@example.com', 'hal-password', `/browse/${key}`);
    await expect.poll(() => commentForm(page).getByRole('textbox', { name: 'Comment' }).count()).toBe(1);
    expect(
      await commentForm(page)
        .getByRole('checkbox', { name: /Internal note/ })
        .count(),
    ).toBe(0);
    await context.close();
  });

  it('says a refusal at the form, with the text kept, when the permission went while the page was open', async () => {
    const key = await ticket('SIDE');
    const { context, page } = await logIn(browser, service.url, 'hal@example.com', 'hal-password', `/browse/${key}`);
    await commentForm(page).getByRole('textbox', { name: 'Comment' }).fill('Still on it?');
    const later = WORKSPACE.replace(/(key: SIDE[\s\S]*?role: )Agent/, '$1Triage');
    expect(later).not.toBe(WORKSPACE);
    await applyWorkspace(service.db, parseWorkspaceYaml(later, 'later workspace'));
    await commentForm(page).getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => commentForm(page).getByRole('alert').count()).toBe(1);
    expect(await commentForm(page).getByRole('textbox', { name: 'Comment' }).inputValue()).toBe('Still on it?');
    expect((await api('GET', `/tickets/${key}`)).json.comments).toEqual([]);
    await context.close();
  });
});
