import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { Browser, decodeEntities, formFields } from '../oauth/support.ts';
import { boardsWorkspaceWithPasswords } from './board-admin-support.ts';

// Swimlanes and quick filters are declared by the workspace file as by the settings page, through
// the same rule, and the board's page draws them: lanes in reading order, cards narrowed on demand.

const BOARDS = `
  - number: 7
    name: Lanes by priority
    kind: kanban
    projects: [CORE]
    swimlanes: priority
    quick_filters:
      - { name: Nobody's, assignee: unassigned }
    columns:
      - { name: Open, statuses: [To Do, In Progress, Review] }
      - { name: Done, statuses: [Done] }
  - number: 8
    name: Lanes by parent
    kind: kanban
    projects: [CORE]
    swimlanes: parent
    columns:
      - { name: Open, statuses: [To Do, In Progress, Review] }
`;

let service: TestService;
let lee: string;

beforeAll(async () => {
  const file = boardsWorkspaceWithPasswords();
  service = await startTestService({ workspace: file.replace(/\nboards:\n/, `\nboards:\n${BOARDS.slice(1)}`) });
  lee = await service.token('lee@example.com', 'write');
});
afterAll(async () => service?.close());

async function create(body: Record<string, unknown>): Promise<string> {
  const reply = await service.request('POST', '/api/v1/tickets', { token: lee, body: { project: 'CORE', ...body } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.key as string;
}

async function page(path: string): Promise<string> {
  const browser = new Browser(service);
  expect((await browser.logIn('lee@example.com', 'lee-password')).status).toBe(303);
  const answer = await browser.get(path);
  expect(answer.status).toBe(200);
  return decodeEntities(answer.text);
}

const lanes = (text: string) => [...text.matchAll(/<h2 id="lane-\d+">([^<]+?) <span/g)].map((m) => m[1]);

describe('swimlanes declared in the workspace file group the board page’s cards', () => {
  it('by priority, highest first; by parent, the cards without one last', async () => {
    const low = await create({ summary: 'Low one', priority: 'Low', assignee: 'me' });
    const high = await create({ summary: 'High one', priority: 'High' });
    const byPriority = await page('/boards/7');
    expect(lanes(byPriority)).toEqual(['Priority: High', 'Priority: Low']);
    expect(/id="lane-0"[\s\S]*?<\/section>/.exec(byPriority)![0]).toContain(high);
    expect(/id="lane-1"[\s\S]*?<\/section>/.exec(byPriority)![0]).toContain(low);
    const parent = await create({ summary: 'The parent' });
    const child = await create({ summary: 'The child', parent });
    const byParent = await page('/boards/8');
    expect(lanes(byParent)).toEqual([`Parent: ${parent}`, 'Parent: No parent']);
    expect(/id="lane-0"[\s\S]*?<\/section>/.exec(byParent)![0]).toContain(child);
  });
});

describe('a quick filter declared in the workspace file narrows the board page, not the board', () => {
  it('shows only the unassigned cards while on, and every card with "All cards"', async () => {
    const mine = await create({ summary: 'Lee’s card', priority: 'High', assignee: 'me' });
    const nobodys = await create({ summary: 'Nobody’s card', priority: 'High' });
    const filtered = await page('/boards/7?quick=Nobody%27s');
    expect(filtered).toContain(nobodys);
    expect(filtered).not.toContain(`>${mine}<`);
    expect(filtered).toContain(`aria-current="true">Nobody's</a>`);
    expect(filtered).toContain('<a href="/boards/7">All cards</a>');
    const all = await page('/boards/7');
    expect(all).toContain(`>${mine}<`);
    const api = await service.request('GET', '/api/v1/boards/7', { token: lee });
    expect(JSON.stringify(api.body)).toContain(mine);
  });
});

describe("a board's filter chooses its tickets with its projects: one of its types, one of its labels", () => {
  async function saveFilter(labels: string, types = '') {
    const browser = new Browser(service);
    expect((await browser.logIn('lee@example.com', 'lee-password')).status).toBe(303);
    const settings = await browser.get('/boards/7/settings');
    const csrf = formFields(settings.text, '/boards/7/settings').csrf!;
    const stored = (await service.request('GET', '/api/v1/boards/7', { token: lee })).body;
    const form: Record<string, string | string[]> = {
      csrf,
      name: stored.name,
      kind: stored.kind,
      projects: stored.projects.join(', '),
      swimlanes: 'priority',
      filter_labels: labels,
      filter_types: types,
      'column-count': String(stored.columns.length),
    };
    stored.columns.forEach((c: { name: string; statuses: string[] }, i: number) => {
      form[`column-${i}-name`] = c.name;
      form[`column-${i}-statuses`] = c.statuses;
    });
    return browser.request('POST', '/boards/7/settings', { form });
  }
  const keysOf = (detail: { columns: { tickets: { key: string }[] }[] }) => detail.columns.flatMap((c) => c.tickets.map((t) => t.key));

  it('shows on the board and in its backlog only the tickets carrying a label of the filter, and all again without one', async () => {
    const urgent = await create({ summary: 'Urgent one', labels: ['Urgent'] });
    const calm = await create({ summary: 'Calm one' });
    expect((await saveFilter('urgent, Blocker')).status).toBe(303);
    const board = (await service.request('GET', '/api/v1/boards/7', { token: lee })).body;
    expect(keysOf(board)).toContain(urgent);
    expect(keysOf(board)).not.toContain(calm);
    const backlog = (await service.request('GET', '/api/v1/boards/7/backlog', { token: lee })).body;
    expect(backlog.backlog.map((t: { key: string }) => t.key)).toEqual([urgent]);
    expect((await saveFilter('')).status).toBe(303);
    expect(keysOf((await service.request('GET', '/api/v1/boards/7', { token: lee })).body)).toContain(calm);
  });

  it('refuses a type no project has at its field, with 422', async () => {
    const refused = await saveFilter('', 'Epic');
    expect(refused.status).toBe(422);
    expect(decodeEntities(refused.text)).toMatch(/id="field-filter_types-error">No ticket type "Epic"/);
  });
});
