import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/modules/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { formToken } from '../../src/web/session.ts';
import { postMcp, request } from '../mcp/mcp-client.ts';
import { Browser, decodeEntities, formFields } from '../oauth/support.ts';
import { boardsWorkspaceWithPasswords } from './board-admin-support.ts';

// Board administration (spec 1: done in the browser) runs web-only operations from the board's
// settings page: only those spec 5.6 lets manage the board's sprints may do it, a refused change
// changes nothing, a mistake comes back at its field, and every change is in the audit log.

let service: TestService;
let lee: string;

beforeAll(async () => {
  service = await startTestService({ workspace: boardsWorkspaceWithPasswords() });
  lee = await service.token('lee@example.com', 'write');
});
afterAll(async () => service?.close());

async function loggedIn(persona: string): Promise<Browser> {
  const browser = new Browser(service);
  const answer = await browser.logIn(`${persona}@example.com`, `${persona}-password`);
  expect(answer.status).toBe(303);
  return browser;
}

async function boardOverApi(number: number) {
  const reply = await service.request('GET', `/api/v1/boards/${number}`, { token: lee });
  return reply;
}

const columnsOf = (detail: { columns: { name: string | null; statuses: string[]; min: number | null; max: number | null }[] }) =>
  detail.columns.map(({ name, statuses, min, max }) => ({ name, statuses, min, max }));

/** The settings form of board `number` as the member's page holds it, with `changes` made. */
async function postSettings(browser: Browser, number: number, changes: Record<string, string | string[]>) {
  const page = await browser.get(`/boards/${number}/settings`);
  expect(page.status, page.text.slice(0, 500)).toBe(200);
  const csrf = formFields(page.text, `/boards/${number}/settings`).csrf!;
  const stored = await boardOverApi(number);
  const form: Record<string, string | string[]> = {
    csrf,
    name: stored.body.name,
    kind: stored.body.kind,
    projects: (stored.body.projects as string[]).join(', '),
    swimlanes: 'none',
    'column-count': String(stored.body.columns.length),
  };
  stored.body.columns.forEach((c: { name: string | null; statuses: string[]; min: number | null; max: number | null }, i: number) => {
    form[`column-${i}-name`] = c.name ?? '';
    form[`column-${i}-statuses`] = c.statuses;
    form[`column-${i}-min`] = c.min === null ? '' : String(c.min);
    form[`column-${i}-max`] = c.max === null ? '' : String(c.max);
  });
  return browser.request('POST', `/boards/${number}/settings`, { form: { ...form, ...changes } });
}

async function auditActions(): Promise<string[]> {
  const ada = await loggedIn('ada');
  const page = await ada.get('/admin/audit');
  return [...page.text.matchAll(/data-label="What">([^<]+)</g)].map((m) => m[1]!);
}

describe('board administration needs what sprint management needs: an administrator, or project:admin in every project of the board (spec 5.6)', () => {
  it('refuses Pat, project:admin in CORE but not OPS, with 403 at board 1, and changes nothing', async () => {
    const before = await boardOverApi(1);
    const audits = (await auditActions()).length;
    const pat = await loggedIn('pat');
    const page = await pat.get('/boards/1/settings');
    expect(page.status).toBe(403);
    // Pat's own valid token for the action: the operation refuses her, not the form's check
    const csrf = formToken({ cookie: pat.cookies.get('atrium_session')! }, '/boards/1/settings');
    const form = { csrf, name: 'Taken over', kind: 'kanban', projects: 'CORE', 'column-count': '1', 'column-0-statuses': 'To Do' };
    const refused = await pat.request('POST', '/boards/1/settings', { form });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('You may not change board 1');
    const deleteCsrf = formToken({ cookie: pat.cookies.get('atrium_session')! }, '/boards/1/delete');
    expect((await pat.request('POST', '/boards/1/delete', { form: { csrf: deleteCsrf, confirm: 'on' } })).status).toBe(403);
    expect((await boardOverApi(1)).body).toEqual(before.body);
    expect((await auditActions()).length).toBe(audits);
  });

  it('lets Pat administer board 2, which draws from CORE alone', async () => {
    const pat = await loggedIn('pat');
    const saved = await postSettings(pat, 2, { name: 'Core flow, renamed' });
    expect(saved.status, saved.text.slice(0, 500)).toBe(303);
    expect((await boardOverApi(2)).body.name).toBe('Core flow, renamed');
  });

  it('refuses Dan, who is no project admin, a new board with 403, and no board is created', async () => {
    const dan = await loggedIn('dan');
    const page = await dan.get('/boards/new');
    const csrf = formFields(page.text, '/boards/new').csrf!;
    const refused = await dan.request('POST', '/boards/new', { form: { csrf, name: 'Mine', kind: 'kanban', projects: 'CORE' } });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('You may not create a board over these projects');
    const boards = await service.request('GET', '/api/v1/boards', { token: lee });
    expect((boards.body.boards as { name: string }[]).map((b) => b.name)).not.toContain('Mine');
  });

  it('refuses Pat a board over OPS, where she is no project admin, and Lee one over every project (administrators only)', async () => {
    for (const [persona, form] of [
      ['pat', { name: 'Ops too', kind: 'kanban', projects: 'CORE, OPS' }],
      ['lee', { name: 'Everything', kind: 'kanban', all_projects: 'on' }],
    ] as const) {
      const browser = await loggedIn(persona);
      const csrf = formFields((await browser.get('/boards/new')).text, '/boards/new').csrf!;
      const refused = await browser.request('POST', '/boards/new', { form: { csrf, ...form } });
      expect(refused.status).toBe(403);
    }
  });
});

describe('a mistake in the settings is refused with 422 at its field, what was typed kept, and nothing changes', () => {
  it('says a column whose minimum is above its maximum at that minimum', async () => {
    const before = await boardOverApi(1);
    const browser = await loggedIn('lee');
    const refused = await postSettings(browser, 1, { 'column-1-name': 'Typed name', 'column-1-min': '5', 'column-1-max': '2' });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/id="field-column-1-min-error">Is above max</);
    expect(refused.text).toMatch(/aria-invalid="true"/);
    expect(refused.text).toContain('value="Typed name"');
    expect((await boardOverApi(1)).body).toEqual(before.body);
  });

  it('says a status shown by two columns at the second, and a limit that is no number at its field', async () => {
    const browser = await loggedIn('lee');
    const twice = await postSettings(browser, 1, { 'column-3-statuses': ['Done', 'To Do'] });
    expect(twice.status).toBe(422);
    expect(decodeEntities(twice.text)).toMatch(/id="field-column-3-statuses-error">Status "To Do" is already shown by column 1/);
    const word = await postSettings(browser, 1, { 'column-0-max': 'lots' });
    expect(word.status).toBe(422);
    expect(word.text).toMatch(/id="field-column-0-max-error">/);
  });

  it('says a quick filter that matches nothing in particular at its name', async () => {
    const browser = await loggedIn('lee');
    const refused = await postSettings(browser, 1, { 'quick-count': '0', 'quick-new-name': 'Everything' });
    expect(refused.status).toBe(422);
    expect(decodeEntities(refused.text)).toMatch(/id="field-quick-new-name-error">A quick filter needs an assignee, a label or a type/);
  });

  it('says an unknown project at the projects field when creating', async () => {
    const browser = await loggedIn('lee');
    const csrf = formFields((await browser.get('/boards/new')).text, '/boards/new').csrf!;
    const refused = await browser.request('POST', '/boards/new', { form: { csrf, name: 'Nope', kind: 'scrum', projects: 'CORE, NOPE' } });
    expect(refused.status).toBe(422);
    expect(decodeEntities(refused.text)).toMatch(/id="field-projects-error">No project "NOPE"/);
    expect(refused.text).toContain('value="CORE, NOPE"');
  });
});

describe('a board created and changed on its pages is what the API shows, and each change is in the audit log', () => {
  it('creates a board with a column per status category, then renames, adds, moves and removes columns', async () => {
    const browser = await loggedIn('lee');
    const audits = (await auditActions()).length;
    const csrf = formFields((await browser.get('/boards/new')).text, '/boards/new').csrf!;
    const created = await browser.request('POST', '/boards/new', {
      form: { csrf, name: 'Team board', kind: 'scrum', projects: 'core, OPS' },
    });
    expect(created.status).toBe(303);
    const number = Number(/\/boards\/(\d+)\/settings/.exec(created.location ?? '')![1]);
    const fresh = await boardOverApi(number);
    expect(fresh.body).toMatchObject({ name: 'Team board', kind: 'scrum', projects: ['CORE', 'OPS'], owner: { name: 'Lee Lead' } });
    expect(columnsOf(fresh.body)).toEqual([
      { name: 'To Do', statuses: ['To Do'], min: null, max: null },
      { name: 'In Progress', statuses: ['In Progress', 'Review'], min: null, max: null },
      { name: 'Done', statuses: ['Done'], min: null, max: null },
    ]);
    const settings = await browser.get(`/boards/${number}/settings`);
    expect(settings.text).toMatch(/Statuses no column shows[^<]*<strong>Parked<\/strong>/);

    const saved = await postSettings(browser, number, {
      'column-1-name': 'Doing',
      'column-1-statuses': ['In Progress'],
      'column-1-max': '3',
      'column-new-name': 'Review',
      'column-new-statuses': ['Review'],
    });
    expect(saved.status).toBe(303);
    const page = await browser.get(`/boards/${number}/settings`);
    const actions = formFields(page.text, `/boards/${number}/settings/columns`).csrf!;
    expect(
      (await browser.request('POST', `/boards/${number}/settings/columns`, { form: { csrf: actions, column: '3:left' } })).status,
    ).toBe(303);
    expect(
      (await browser.request('POST', `/boards/${number}/settings/columns`, { form: { csrf: actions, column: '0:remove' } })).status,
    ).toBe(303);
    expect(columnsOf((await boardOverApi(number)).body)).toEqual([
      { name: 'Doing', statuses: ['In Progress'], min: null, max: 3 },
      { name: 'Review', statuses: ['Review'], min: null, max: null },
      { name: 'Done', statuses: ['Done'], min: null, max: null },
    ]);
    expect((await auditActions()).slice(0, 4)).toEqual(['board.updated', 'board.updated', 'board.updated', 'board.created']);
    expect((await auditActions()).length).toBe(audits + 4);
  });

  it('deletes a board once the member says so: the API no longer has it, and the log says so', async () => {
    const browser = await loggedIn('lee');
    const csrf = formFields((await browser.get('/boards/new')).text, '/boards/new').csrf!;
    const created = await browser.request('POST', '/boards/new', { form: { csrf, name: 'Short-lived', kind: 'kanban', projects: 'OPS' } });
    const number = Number(/\/boards\/(\d+)\/settings/.exec(created.location ?? '')![1]);
    const page = await browser.get(`/boards/${number}/settings`);
    const deleteCsrf = formFields(page.text, `/boards/${number}/delete`).csrf!;
    const unsaid = await browser.request('POST', `/boards/${number}/delete`, { form: { csrf: deleteCsrf } });
    expect(unsaid.status).toBe(422);
    expect(unsaid.text).toMatch(/id="field-confirm-error">Tick this to delete the board/);
    expect((await boardOverApi(number)).status).toBe(200);
    const deleted = await browser.request('POST', `/boards/${number}/delete`, { form: { csrf: deleteCsrf, confirm: 'on' } });
    expect(deleted.status).toBe(303);
    expect((await boardOverApi(number)).status).toBe(404);
    expect((await auditActions())[0]).toBe('board.deleted');
  });
});

describe('board administration is web-only: absent from the OpenAPI document and MCP tools/list', () => {
  const names = ['get_board_settings', 'create_board', 'update_board', 'delete_board', 'get_sprint_report'];

  it('is declared for the web door, and neither the OpenAPI document nor tools/list for an administrator names it', async () => {
    expect(registry.webOnly.map((op) => op.name)).toEqual(expect.arrayContaining(names));
    const openapi = await service.request('GET', '/api/v1/openapi.json');
    expect(openapi.status).toBe(200);
    const tools = await postMcp(service, request('tools/list'), { token: await service.token('ada@example.com', 'write') });
    const listed = (tools.body.result.tools as { name: string }[]).map((tool) => tool.name);
    expect(listed).toContain('get_board');
    for (const name of names) {
      expect(openapi.text).not.toContain(`"${name}"`);
      expect(listed).not.toContain(name);
    }
  });
});
