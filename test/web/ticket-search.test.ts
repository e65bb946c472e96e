import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formToken } from '../../src/web/session.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { type Browser, decodeEntities, loggedIn, send, workspaceWithDevTwo } from '../oauth/support.ts';
import { CORE_SCRUM_BOARD as BOARDS } from './board-work-drag.ts';

// The ticket search page runs GET /tickets (search_tickets) as the member, its filters in the
// address; its bulk change runs, ticket by ticket, the operation the API uses for one. Checked
// here without a browser: the filters' refusals, and the bulk form without script.

let service: TestService;
let lee: string;

beforeAll(async () => {
  service = await startTestService({ workspace: workspaceWithDevTwo() + BOARDS });
  lee = await service.token('lee@example.com', 'write', 'Lee agent');
});
afterAll(async () => service?.close());

const api = (method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${lee}` }, ...(json === undefined ? {} : { json }) });

async function ticket(summary: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await api('POST', '/tickets', { project: 'CORE', summary, ...extra });
  expect(created.status).toBe(201);
  return created.json.key as string;
}

const tokenFor = (browser: Browser, action: string) => formToken({ cookie: browser.cookies.get('atrium_session') ?? '' }, action);

/** The keys of the result table's rows, in order. */
const rowKeys = (page: string) => [...page.matchAll(/<tr data-key="([^"]+)">/g)].map((m) => m[1]!);

/** A field's error message, read from its `field-<name>-error` paragraph. */
const fieldError = (page: string, name: string) => decodeEntities(new RegExp(`id="field-${name}-error">([^<]*)<`).exec(page)?.[1] ?? '');

describe('the search page finds what GET /tickets finds, as the member', () => {
  it('lists the same tickets in the same order as the API for the same filters and sort', async () => {
    const keys = [
      await ticket('Searchable walrus one', { labels: ['walrus'] }),
      await ticket('Searchable walrus two', { labels: ['walrus'] }),
    ];
    const browser = await loggedIn(service, 'lee');
    const page = await browser.get('/tickets?project=CORE&label=walrus&sort=key');
    expect(page.status).toBe(200);
    const listed = (await api('GET', '/tickets?project=CORE&label=walrus&sort=key')).json.tickets.map((t: { key: string }) => t.key);
    expect(listed).toEqual(keys);
    expect(rowKeys(page.text)).toEqual(listed);
    // the filters shown again in the form, so the address and the form say the same search
    expect(page.text).toMatch(/id="field-label" name="label" value="walrus"/);
  });

  it('shows no ticket of a project the member may not see', async () => {
    const hidden = await api('POST', '/tickets', { project: 'HIDE', summary: 'Only leads see this' });
    expect(hidden.status).toBe(201);
    const dev2 = await loggedIn(service, 'dev2');
    const page = await dev2.get('/tickets?query=leads');
    expect(page.status).toBe(200);
    expect(rowKeys(page.text)).not.toContain(hidden.json.key);
  });

  it('says an empty result with what to do', async () => {
    const browser = await loggedIn(service, 'lee');
    const page = await browser.get('/tickets?query=nothingmatchesthisword');
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="tickets-none"');
  });
});

describe('a refused filter (422) is said at its field, with what was given kept', () => {
  it('names the assignee that matches nobody at the Assignee field', async () => {
    const browser = await loggedIn(service, 'lee');
    const page = await browser.get('/tickets?assignee=Nobody%20Known');
    expect(page.status).toBe(422);
    expect(fieldError(page.text, 'assignee')).not.toBe('');
    expect(page.text).toMatch(
      /id="field-assignee" name="assignee" value="Nobody Known" aria-describedby="[^"]*field-assignee-error" aria-invalid="true"/,
    );
    expect(rowKeys(page.text)).toEqual([]);
  });

  it('keeps a project key no project has among the choices, refused at the Project field', async () => {
    const browser = await loggedIn(service, 'lee');
    const page = await browser.get('/tickets?project=NOPE');
    expect(page.status).toBe(422);
    expect(fieldError(page.text, 'project')).not.toBe('');
    expect(page.text).toContain('<option value="NOPE" selected>NOPE</option>');
  });

  it('refuses a status that is none of the categories at the Status field', async () => {
    const browser = await loggedIn(service, 'lee');
    const page = await browser.get('/tickets?status=sleeping');
    expect(page.status).toBe(422);
    expect(fieldError(page.text, 'status')).not.toBe('');
  });
});

describe('a bulk change without script: POST, then the search again with what each ticket became', () => {
  it('transitions each selected ticket through transition_ticket, and lists a refused one with its reason', async () => {
    const started = await ticket('Already started');
    expect((await api('POST', `/tickets/${started}/transitions`, { transition: 'Start' })).status).toBe(200);
    const fresh = await ticket('Not started yet');
    const browser = await loggedIn(service, 'lee');
    const back = '/tickets?project=CORE&sort=key';
    const answer = await browser.request('POST', '/tickets/bulk', {
      form: { csrf: tokenFor(browser, '/tickets/bulk'), back, key: [fresh, started], action: 'transition', bulk_transition: 'Start' },
    });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(back);
    const page = await browser.get(answer.location!);
    expect(page.status).toBe(200);
    const changed = /<ul id="bulk-changed">(.*?)<\/ul>/s.exec(page.text)?.[1] ?? '';
    const refused = /<ul id="bulk-refused">(.*?)<\/ul>/s.exec(page.text)?.[1] ?? '';
    expect(changed).toContain(fresh);
    expect(refused).toContain(started);
    expect(refused).not.toContain('/transition:');
    expect((await api('GET', `/tickets/${fresh}`)).json.status.name).toBe('In Progress');
    expect((await api('GET', `/tickets/${started}`)).json.status.name).toBe('In Progress');
    // the report is said once: a reload shows the search alone
    expect((await browser.get(back)).text).not.toContain('bulk-report');
  });

  it('adds labels to each ticket, keeping those it had', async () => {
    const key = await ticket('Labelled in bulk', { labels: ['backend'] });
    const browser = await loggedIn(service, 'lee');
    const answer = await browser.request('POST', '/tickets/bulk', {
      form: { csrf: tokenFor(browser, '/tickets/bulk'), back: '/tickets', key, action: 'label', bulk_labels: 'Needs Review, backend' },
    });
    expect(answer.status).toBe(303);
    expect((await api('GET', `/tickets/${key}`)).json.labels).toEqual(['backend', 'needs-review']);
  });

  it('refuses a developer assigning tickets (ticket:assign), and leaves their assignee', async () => {
    const key = await ticket('Not for a developer to assign');
    const dev2 = await loggedIn(service, 'dev2');
    const answer = await dev2.request('POST', '/tickets/bulk', {
      form: { csrf: tokenFor(dev2, '/tickets/bulk'), back: '/tickets', key, action: 'assign', bulk_assignee: 'unassigned' },
    });
    expect(answer.status).toBe(303);
    const page = await dev2.get('/tickets');
    expect(/<ul id="bulk-refused">(.*?)<\/ul>/s.exec(page.text)?.[1] ?? '').toContain(key);
    expect(page.text).not.toContain('id="bulk-changed"');
    expect((await api('GET', `/tickets/${key}`)).json.assignee).toBeNull();
  });

  it('sends the form back with a transition to choose at its field, changing nothing', async () => {
    const key = await ticket('Waits for a choice');
    const browser = await loggedIn(service, 'lee');
    const answer = await browser.request('POST', '/tickets/bulk', {
      form: { csrf: tokenFor(browser, '/tickets/bulk'), back: '/tickets?project=CORE', key, action: 'transition', bulk_transition: '' },
    });
    expect(answer.status).toBe(422);
    expect(fieldError(answer.text, 'bulk_transition')).toBe('Choose a transition.');
    // what was ticked stays ticked
    expect(answer.text).toContain(`value="${key}" id="select-${key}" aria-label="Select ${key}" checked`);
    expect((await api('GET', `/tickets/${key}`)).json.status.name).toBe('To Do');
  });

  it('refuses a bulk form without a selected ticket, and one without the form’s token', async () => {
    const key = await ticket('Untouched by a stranger');
    const browser = await loggedIn(service, 'lee');
    const none = await browser.request('POST', '/tickets/bulk', {
      form: { csrf: tokenFor(browser, '/tickets/bulk'), back: '/tickets', action: 'label', bulk_labels: 'x' },
    });
    expect(none.status).toBe(422);
    expect(none.text).toContain('Select at least one ticket.');
    const foreign = await browser.request('POST', '/tickets/bulk', {
      form: { csrf: tokenFor(browser, '/tickets/new'), back: '/tickets', key, action: 'label', bulk_labels: 'stranger' },
    });
    expect(foreign.status).toBe(403);
    expect((await api('GET', `/tickets/${key}`)).json.labels).toEqual([]);
  });
});

describe('a bulk change with htmx: the results drawn again, the report above them', () => {
  it('answers a change with the results and the report, the message in #flash', async () => {
    const key = await ticket('Labelled with htmx');
    const browser = await loggedIn(service, 'lee');
    const answer = await browser.request('POST', '/tickets/bulk', {
      form: { csrf: tokenFor(browser, '/tickets/bulk'), back: '/tickets?project=CORE', key, action: 'label', bulk_labels: 'swapped' },
      headers: { 'hx-request': 'true' },
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/^<div id="ticket-results">/);
    expect(/<ul id="bulk-changed">(.*?)<\/ul>/s.exec(answer.text)?.[1] ?? '').toContain(key);
    expect(answer.text).toContain('hx-swap-oob="innerHTML:#flash"');
    expect((await api('GET', `/tickets/${key}`)).json.labels).toEqual(['swapped']);
  });

  it('answers a form missing its choice with the results and the error at its field (422)', async () => {
    const key = await ticket('Not assigned with htmx');
    const browser = await loggedIn(service, 'lee');
    const answer = await browser.request('POST', '/tickets/bulk', {
      form: { csrf: tokenFor(browser, '/tickets/bulk'), back: '/tickets?project=CORE', key, action: 'assign', bulk_assignee: '' },
      headers: { 'hx-request': 'true' },
    });
    expect(answer.status).toBe(422);
    expect(answer.text).toMatch(/^<div id="ticket-results">/);
    expect(fieldError(answer.text, 'bulk_assignee')).toBe('Choose whom to assign them to.');
  });
});
