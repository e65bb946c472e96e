import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { Browser as FormBrowser, formFields, send, startListeningService } from '../oauth/support.ts';
import { closeChromium, expectAccessible, launchChromium, logIn, settled, type Visit } from './browser.ts';

// The foundation every module's pages stand on, tried as a member would in Chromium: the header
// names each module the member may use, the search box and the command palette find a ticket, a
// page and (for a CRM member) a contact, the shortcuts never fire while typing, the create-ticket
// form shows a refusal at its field with what was typed kept, and a page the member may not open
// says what happened and where to go. axe-core runs on every page on the way.

const WORKSPACE = `
workspace: { name: Foundation, rest_api: true, mcp: true, default_priority: Medium, priorities: [High, Medium, Low] }
members:
  - { name: Ada Admin, email: ada@example.com, password: ada-password, admin: true }
  - { name: Mia Seller, email: mia@example.com, password: mia-password, timezone: Europe/Berlin }
  - { name: Olga Outsider, email: olga@example.com, password: olga-password }
roles:
  - name: Member
    permissions: [project:view, ticket:create, ticket:edit, ticket:transition, ticket:comment, time:log, knowledge:read, knowledge:edit]
  - { name: CRM viewer, permissions: [crm:view] }
workflows:
  - name: Simple
    statuses: [{ name: To Do, category: todo }, { name: Done, category: done }]
    transitions: [{ name: Finish, from: any, to: Done }]
projects:
  - key: CORE
    name: Core platform
    kind: software
    workflow: Simple
    ticket_types: [Task, Bug]
    roles: [{ role: Member, members: [mia@example.com, olga@example.com] }]
    tickets:
      - { number: 1, summary: Quarterly report layout, reporter: mia@example.com, assignee: mia@example.com }
boards:
  - number: 1
    name: Core board
    kind: kanban
    projects: [CORE]
    columns: [{ name: Waiting, statuses: [To Do] }, { name: Finished, statuses: [Done] }]
spaces:
  - key: ENG
    name: Engineering
    project: CORE
    pages:
      - { slug: onboarding, title: Onboarding guide, body: "The quarterly checklist for newcomers." }
      - { slug: laptops, title: Laptops, parent: onboarding, body: "Ask for one." }
crm:
  roles: [{ role: CRM viewer, members: [mia@example.com] }]
  companies: [{ name: Widgets Ltd, stage: customer, industry: Manufacturing }]
  contacts: [{ name: Quinn Quarterly, company: Widgets Ltd, stage: customer, email: quinn@widgets.example }]
`;

let service: TestService;
let browser: Browser;
let mia: string;

beforeAll(async () => {
  service = await startListeningService({ workspace: WORKSPACE });
  mia = await service.token('mia@example.com', 'write', 'Mia agent');
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  await service?.close();
}, 90_000);

const api = (token: string, method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, ...(json === undefined ? {} : { json }) });
const at = (path: string) => new URL(path, service.url).href;
const asMia = (path = '/', javaScript = true) => logIn(browser, service.url, 'mia@example.com', 'mia-password', path, { javaScript });
const asOlga = (path = '/') => logIn(browser, service.url, 'olga@example.com', 'olga-password', path);
const moduleLinks = (page: Page) => page.getByRole('navigation', { name: 'Modules' }).getByRole('link').allTextContents();

/** Opens each page and runs axe-core on it. */
async function visitAll(visit: Visit, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const answer = await visit.page.goto(at(path));
    expect(answer?.status(), path).toBeLessThan(400);
    await expectAccessible(visit.page, path);
  }
}

describe('the header names every module that is on and that the member may use', () => {
  it('shows the CRM to a member with a CRM role and not to one without, whose CRM page says why', async () => {
    const m = await asMia();
    expect(await moduleLinks(m.page)).toEqual(['Projects', 'Tickets', 'Boards', 'Knowledge base', 'Time', 'CRM']);
    await m.page.getByRole('navigation', { name: 'Modules' }).getByRole('link', { name: 'CRM' }).click();
    await m.page.getByRole('heading', { name: 'CRM' }).waitFor();
    expect(await m.page.getByRole('link', { name: 'Quinn Quarterly' }).count()).toBe(1);
    await m.context.close();

    const o = await asOlga();
    expect(await moduleLinks(o.page)).toEqual(['Projects', 'Tickets', 'Boards', 'Knowledge base', 'Time']);
    const refused = await o.page.goto(at('/crm'));
    expect(refused?.status()).toBe(403);
    expect(await o.page.getByRole('heading', { level: 1 }).textContent()).toBe('You may not do this');
    expect(await o.page.getByRole('main').textContent()).toContain('open only to members with a CRM role');
    await expectAccessible(o.page, '403 page');
    await o.context.close();
  });

  it('leaves out a module switched off, whose pages then say so as the API does (403) and where to go', async () => {
    const admin = new FormBrowser(service);
    await admin.logIn('ada@example.com', 'ada-password');
    const settings = await admin.get('/admin/settings');
    const on = Object.fromEntries(['rest_api', 'mcp', 'boards', 'sprints', 'helpdesk', 'time', 'crm'].map((name) => [name, 'on']));
    expect((await admin.post('/admin/settings', { ...formFields(settings.text, '/admin/settings'), ...on })).status).toBe(303);
    try {
      const m = await asMia();
      expect(await moduleLinks(m.page)).toEqual(['Projects', 'Tickets', 'Boards', 'Time', 'CRM']);
      const off = await m.page.goto(at('/knowledge'));
      expect(off?.status()).toBe(403);
      const main = await m.page.getByRole('main').textContent();
      expect(main).toContain('The knowledge base module is switched off in this workspace');
      expect(main).toContain('Ask an administrator to switch it on');
      expect(await m.page.getByRole('main').getByRole('link', { name: 'your home page' }).count()).toBe(1);
      await expectAccessible(m.page, 'module switched off');
      await m.context.close();
    } finally {
      await admin.post('/admin/settings', { ...formFields(settings.text, '/admin/settings'), ...on, knowledge: 'on' });
    }
  });
});

describe('the search box finds tickets, knowledge pages and — for a CRM member — contacts, as the API shows them', () => {
  it('finds the ticket, the page and the contact for Mia, and no contact for Olga', async () => {
    const m = await asMia();
    await m.page.getByRole('searchbox', { name: 'Search tickets, pages and contacts' }).fill('quarterly');
    await m.page.keyboard.press('Enter');
    await m.page.waitForURL(at('/search?q=quarterly'));
    await expectAccessible(m.page, 'search results');
    const results = m.page.getByRole('main');
    expect(await results.getByRole('link', { name: 'CORE-1' }).count()).toBe(1);
    expect(await results.getByRole('link', { name: 'Onboarding guide' }).count()).toBe(1);
    await results.getByRole('link', { name: 'Quinn Quarterly' }).click();
    await m.page.getByRole('heading', { name: 'Quinn Quarterly' }).waitFor();
    await m.page.goBack();
    await m.page.getByRole('main').getByRole('link', { name: 'Onboarding guide' }).click();
    expect(await m.page.getByRole('heading', { level: 1 }).textContent()).toBe('Onboarding guide');
    await m.context.close();

    const o = await asOlga('/search?q=quarterly');
    expect(await o.page.getByRole('main').getByRole('link', { name: 'CORE-1' }).count()).toBe(1);
    expect(await o.page.getByRole('heading', { name: 'Contacts' }).count()).toBe(0);
    expect(await o.page.getByRole('main').textContent()).not.toContain('Quinn');
    await o.context.close();
  });
});

describe('the command palette (Ctrl/Cmd+K) goes to a ticket, board, page or person, and creates', () => {
  it('opens with Ctrl+K, finds each kind, and Enter goes to the first', async () => {
    const { context, page, problems } = await asMia();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Go to or create' });
    await palette.waitFor();
    await expectAccessible(page, 'command palette');
    const input = palette.getByRole('searchbox', { name: 'A ticket key, board, page or person' });
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await palette.getByRole('link', { name: 'Create Create a ticket' }).waitFor();
    await input.fill('core board');
    await palette.getByRole('link', { name: 'Board Core board' }).waitFor();
    await input.fill('onboarding');
    await palette.getByRole('link', { name: 'Page Onboarding guide' }).waitFor();
    await input.fill('olga');
    await palette.getByRole('link', { name: 'Person Olga Outsider' }).waitFor();
    await input.fill('CORE-1');
    await palette.getByRole('link', { name: 'Ticket CORE-1 Quarterly report layout' }).waitFor();
    await input.press('Enter');
    await page.waitForURL(at('/browse/CORE-1'));
    // Cmd+K as well (macOS)
    await page.keyboard.press('Meta+k');
    await palette.waitFor();
    await page.keyboard.press('Escape');
    expect(await palette.isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('single-key shortcuts: c creates, / searches, ? lists them — never while typing in a field', () => {
  it('lists them with ?, focuses search with /, and c typed into a field stays a letter', async () => {
    const { context, page } = await asMia('/projects/CORE');
    await page.keyboard.press('?');
    const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await list.waitFor();
    await expectAccessible(page, 'shortcuts list');
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search tickets, pages and contacts' });
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('c?/');
    expect(await search.inputValue()).toBe('c?/');
    expect(page.url()).toBe(at('/projects/CORE'));
    expect(await list.isVisible()).toBe(false);
    await search.blur();
    await page.keyboard.press('c');
    await page.waitForURL(at('/tickets/new'));
    await context.close();
  });
});

describe('the create-ticket form shows a refusal at its field with what was typed kept, and creates through create_ticket', () => {
  for (const javaScript of [false, true]) {
    it(`${javaScript ? 'with htmx' : 'without JavaScript'}: no summary is refused at Summary; then the ticket is created, as the API shows`, async () => {
      const { context, page } = await asMia('/tickets/new', javaScript);
      // axe-core runs in the page: only where JavaScript runs (the same pages without it are the same markup)
      if (javaScript) await expectAccessible(page, 'create-ticket form');
      const description = `Written ${javaScript ? 'with' : 'without'} script: keep **me**`;
      // with htmx a type brings its own fields: the form is drawn again, so the typing waits for it
      const redrawn = javaScript
        ? page.waitForResponse((r) => new URL(r.url()).pathname === '/tickets/new' && r.request().method() === 'GET')
        : null;
      await page.getByLabel('Type').selectOption('Bug');
      if (redrawn) {
        await redrawn;
        await settled(page);
      }
      await page.getByLabel('Description').fill(description);
      await page.getByLabel('Priority').selectOption('High');
      if (javaScript) await page.evaluate(() => Object.assign(window, { stayedOpen: true }));
      await page.getByRole('button', { name: 'Create' }).click();
      const summary = page.getByLabel('Summary');
      await expect.poll(() => summary.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#field-summary-error').textContent()).toBe('Is required');
      expect(await summary.getAttribute('aria-describedby')).toContain('field-summary-error');
      expect(await page.getByLabel('Description').inputValue()).toBe(description);
      expect(await page.getByLabel('Type').inputValue()).toBe('Bug');
      expect(await page.getByLabel('Priority').inputValue()).toBe('High');
      // with htmx the form alone was swapped: the page stayed
      if (javaScript) expect(await page.evaluate(() => (window as unknown as { stayedOpen?: boolean }).stayedOpen)).toBe(true);
      if (javaScript) await expectAccessible(page, 'create-ticket form with an error');

      await summary.fill(`Created ${javaScript ? 'with' : 'without'} script`);
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/browse\/CORE-\d+$/);
      const key = page.url().split('/').pop()!;
      expect(await page.getByRole('status').textContent()).toContain(`Created ${key}`);
      const seen = await api(mia, 'GET', `/tickets/${key}`);
      expect(seen.json).toMatchObject({
        summary: `Created ${javaScript ? 'with' : 'without'} script`,
        type: 'Bug',
        priority: 'High',
        description: { format: 'markdown', text: description },
      });
      expect(seen.json.reporter.name).toBe('Mia Seller');
      await context.close();
    });
  }
});

describe('a member opening an administrator’s page reads what happened and where to go', () => {
  it('says only administrators can change settings, and leads home', async () => {
    const { context, page } = await asMia();
    const answer = await page.goto(at('/admin/settings'));
    expect(answer?.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('You may not do this');
    expect(await page.getByRole('main').textContent()).toContain('Only administrators can change the workspace settings');
    expect(await page.getByRole('main').textContent()).not.toContain('Something is wrong');
    await expectAccessible(page, '403 settings');
    await page.getByRole('main').getByRole('link', { name: 'your home page' }).click();
    await page.waitForURL(at('/'));
    await context.close();
  });
});

describe('every page passes axe-core with no serious or critical finding, light and dark', () => {
  let pages: string[] = [];
  beforeAll(async () => {
    const activity = await api(mia, 'POST', '/activities', {
      description: 'Quarterly planning',
      start: '2026-01-05T09:00:00Z',
      duration: '1h 30m',
    });
    expect(activity.status).toBe(201);
    const contacts = await api(mia, 'GET', '/contacts?q=quinn');
    const companies = await api(mia, 'GET', '/companies');
    pages = [
      '/',
      '/projects/CORE',
      '/browse/CORE-1',
      '/boards',
      '/boards/1',
      '/knowledge',
      '/knowledge/ENG/pages/onboarding',
      '/time',
      '/crm',
      `/crm/contacts/${contacts.json.contacts[0].id}`,
      `/crm/companies/${companies.json.companies[0].id}`,
      '/search?q=quarterly',
      '/search',
      '/tickets/new',
      '/notifications',
      '/agents',
      '/agents/activity',
      `/people/${(await api(mia, 'GET', '/me')).json.user.id}`,
    ];
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`checks each page a member opens, ${scheme}`, async () => {
      const m = await asMia();
      await m.page.emulateMedia({ colorScheme: scheme });
      await visitAll(m, pages);
      await m.context.close();
    });
  }

  it('checks the 404 page, the administrator’s pages and the log-in page', async () => {
    const m = await asMia();
    const missing = await m.page.goto(at('/no/such/page'));
    expect(missing?.status()).toBe(404);
    await expectAccessible(m.page, '404 page');
    await m.context.close();

    const admin = await logIn(browser, service.url, 'ada@example.com', 'ada-password', '/admin/settings');
    await visitAll(admin, ['/admin/settings', '/admin/audit', '/knowledge/ENG/trash']);
    await admin.context.close();

    const stranger = await browser.newContext();
    const login = await stranger.newPage();
    await login.goto(at('/login'));
    await expectAccessible(login, 'log-in page');
    await stranger.close();
  });
});
