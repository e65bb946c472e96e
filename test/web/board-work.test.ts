import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formToken } from '../../src/web/session.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { type Browser, formFields, loggedIn, send, workspaceWithDevTwo } from '../oauth/support.ts';
import { CORE_SCRUM_BOARD as BOARDS } from './board-work-drag.ts';

// The board and backlog pages' actions are the API's operations run as the member: the same
// permissions (spec 5.6), and a refused one changes nothing. Checked here without a browser.

let service: TestService;
let lee: string;

beforeAll(async () => {
  service = await startTestService({ workspace: workspaceWithDevTwo() + BOARDS });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
});
afterAll(async () => service?.close());

const api = (method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${lee}` }, ...(json === undefined ? {} : { json }) });

async function ticket(summary: string): Promise<string> {
  const created = await api('POST', '/tickets', { project: 'CORE', summary });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

/** A form's token for `action` in this browser's session, as the page would have written it. */
const tokenFor = (browser: Browser, action: string) => formToken({ cookie: browser.cookies.get('atrium_session') ?? '' }, action);

const columnKeys = async (name: string) =>
  ((await api('GET', '/boards/1')).json.columns as { name: string; tickets: { key: string }[] }[])
    .find((c) => c.name === name)!
    .tickets.map((t) => t.key);

describe('sprint management in the browser needs what the API needs (spec 5.6)', () => {
  it('refuses a developer creating a sprint with 403, and creates none', async () => {
    const dev2 = await loggedIn(service, 'dev2');
    const answer = await dev2.post('/boards/1/sprints', { csrf: tokenFor(dev2, '/boards/1/sprints'), name: 'Not mine to make' });
    expect(answer.status).toBe(403);
    // refused by the policy, not by the form's token
    expect(answer.text).not.toContain('did not come from this site');
    const sprints = (await api('GET', '/boards/1/sprints')).json.sprints as { name: string }[];
    expect(sprints.map((s) => s.name)).not.toContain('Not mine to make');
  });

  it('refuses starting a sprint from another page’s form token, and it stays future', async () => {
    expect((await api('POST', '/boards/1/sprints', { name: 'Guarded' })).status).toBe(201);
    const browser = await loggedIn(service, 'lee');
    const answer = await browser.post('/boards/1/sprints/Guarded/start', {
      csrf: tokenFor(browser, '/boards/1/sprints'),
      end_date: '2031-01-01',
    });
    expect(answer.status).toBe(403);
    const sprints = (await api('GET', '/boards/1/sprints')).json.sprints as { name: string; state: string }[];
    expect(sprints.find((s) => s.name === 'Guarded')?.state).toBe('future');
  });
});

describe('card moves in the browser need what the API needs (spec 5.6), and a refused one changes nothing', () => {
  it('lets a developer move a card across columns (ticket:transition)', async () => {
    const key = await ticket('Started by a developer');
    const dev2 = await loggedIn(service, 'dev2');
    // the fields of the card's "Move to…" form, as its page gives them
    const fields = formFields((await dev2.get(`/boards/1/moves/new?key=${key}`)).text, '/boards/1/moves');
    const answer = await dev2.post('/boards/1/moves', { ...fields, key, to: '1' });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`/boards/1#card-${key}`);
    expect((await api('GET', `/tickets/${key}`)).json.status.name).toBe('In Progress');
  });

  it('refuses a developer reordering another member’s ticket in its column (ticket:edit), leaving the order', async () => {
    const first = await ticket('Lee ranks this');
    const second = await ticket('And this after it');
    const before = await columnKeys('Waiting');
    const dev2 = await loggedIn(service, 'dev2');
    const fields = formFields((await dev2.get(`/boards/1/moves/new?key=${second}`)).text, '/boards/1/moves');
    const answer = await dev2.post(
      '/boards/1/moves',
      { ...fields, key: second, to: `0:before:${first}` },
      { headers: { 'hx-request': 'true' } },
    );
    expect(answer.status).toBe(403);
    expect(answer.headers['hx-retarget']).toBe('#flash');
    expect(answer.text).toContain('role="alert"');
    expect(await columnKeys('Waiting')).toEqual(before);
  });

  it('refuses a drop without the form token of the board, moving nothing', async () => {
    const key = await ticket('Not moved by a stranger’s post');
    const browser = await loggedIn(service, 'lee');
    const answer = await browser.post('/boards/1/moves', { key, column: '1' }, { headers: { 'hx-request': 'true' } });
    expect(answer.status).toBe(403);
    expect((await api('GET', `/tickets/${key}`)).json.status.name).toBe('To Do');
  });

  it('answers a drop into a column no transition leads to with the reason (422 no_transition), said at the top', async () => {
    const key = await ticket('Done, then dropped back in Doing');
    expect((await api('POST', `/tickets/${key}/transitions`, { transition: 'Finish' })).status).toBe(200);
    const browser = await loggedIn(service, 'lee');
    const answer = await browser.post(
      '/boards/1/moves',
      { key, column: '1' },
      { headers: { 'hx-request': 'true', 'x-csrf-token': tokenFor(browser, '/boards/1/moves') } },
    );
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('no transition you can take');
    expect((await api('GET', `/tickets/${key}`)).json.status.name).toBe('Done');
  });
});
