import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseCommands } from '../../src/cli/database-commands.ts';
import { READ_ONLY_MESSAGE, SETTING_SWITCHES, type SwitchableModule } from '../../src/core/settings.ts';
import type { TestService } from '../helpers/service.ts';
import { startTestService } from '../helpers/service.ts';
import { Browser, formFields } from '../oauth/support.ts';

// What the pages say about the workspace's switches: a module switched off answers every page of
// it as its API answers (403, naming the module) and says who switches it on; the CRM closed to a
// member says why; a workspace the operator made read-only says so on every page.

const WORKSPACE = `
workspace: { name: Switches, rest_api: true, mcp: true, default_priority: Medium, priorities: [High, Medium, Low] }
members:
  - { name: Ada Admin, email: ada@example.com, password: ada-password, admin: true }
  - { name: Mia Seller, email: mia@example.com, password: mia-password }
  - { name: Olga Outsider, email: olga@example.com, password: olga-password }
roles:
  - name: Member
    permissions: [project:view, ticket:create, ticket:edit, ticket:transition, ticket:comment, time:log, knowledge:read, knowledge:edit, knowledge:manage]
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
    ticket_types: [Task]
    roles: [{ role: Member, members: [mia@example.com, olga@example.com] }]
    tickets:
      - { number: 1, summary: Quarterly report layout, reporter: mia@example.com }
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
      - { slug: onboarding, title: Onboarding guide, body: "Welcome." }
crm:
  roles: [{ role: CRM viewer, members: [mia@example.com] }]
  companies: [{ name: Widgets Ltd, stage: customer }]
  contacts: [{ name: Quinn Quarterly, company: Widgets Ltd, stage: customer }]
`;

let service: TestService;
let mia: string;
let ada: Browser;
let miaPages: Browser;
let contact: string;
let company: string;

beforeAll(async () => {
  service = await startTestService({ workspace: WORKSPACE });
  mia = await service.token('mia@example.com', 'write', 'Mia agent');
  ada = new Browser(service);
  miaPages = new Browser(service);
  expect((await ada.logIn('ada@example.com', 'ada-password')).status).toBe(303);
  expect((await miaPages.logIn('mia@example.com', 'mia-password')).status).toBe(303);
  contact = (await service.request('GET', '/api/v1/contacts?q=Quinn', { token: mia })).body.contacts[0].id;
  company = (await service.request('GET', '/api/v1/companies?q=Widgets', { token: mia })).body.companies[0].id;
});
afterAll(() => service?.close());

/** The administrator turns one module off or on with the settings form, everything else on. */
async function turn(module: SwitchableModule, on: boolean): Promise<void> {
  const fields = formFields((await ada.get('/admin/settings')).text, '/admin/settings');
  const all = Object.fromEntries(SETTING_SWITCHES.map((name) => [name, 'on']));
  expect((await ada.post('/admin/settings', { ...fields, ...all, [module]: on ? 'on' : '' })).status).toBe(303);
}

/** The banner of a read-only workspace, as the page carries it: its role and its words; null when there is none. */
function readOnlyBanner(page: string): { role: string; text: string } | null {
  const found = /<div [^>]*id="read-only"[^>]*><p>([^<]*)<\/p><\/div>/.exec(page);
  if (!found) return null;
  return { role: /role="(\w+)"/.exec(found[0])?.[1] ?? '', text: found[1]! };
}

const MODULE_PAGES: [SwitchableModule, string, () => string[]][] = [
  ['boards', '/api/v1/boards', () => ['/boards', '/boards/1']],
  ['knowledge', '/api/v1/knowledge/spaces', () => ['/knowledge', '/knowledge/ENG/pages/onboarding', '/knowledge/ENG/trash']],
  ['time', '/api/v1/activities', () => ['/time']],
  ['crm', '/api/v1/contacts', () => ['/crm', `/crm/contacts/${contact}`, `/crm/companies/${company}`]],
];

describe('every page of a switched-off module answers as its API does: 403 naming the module, and who switches it on', () => {
  it.each(MODULE_PAGES)('%s', async (module, apiPath, pages) => {
    for (const path of pages()) expect((await miaPages.get(path)).status, path).toBe(200);
    await turn(module, false);
    try {
      const api = await service.request('GET', apiPath, { token: mia });
      expect(api.status).toBe(403);
      expect(api.body.error.code).toBe('feature_disabled');
      for (const path of pages()) {
        const page = await miaPages.get(path);
        expect(page.status, path).toBe(403);
        expect(page.text, path).toContain(api.body.error.message);
        expect(page.text, path).toContain('Ask an administrator to switch it on');
      }
      const forAdmin = await ada.get(pages()[0]!);
      expect(forAdmin.status).toBe(403);
      expect(forAdmin.text).toMatch(/Switch it on in <a href="\/admin\/settings">Settings<\/a>/);
    } finally {
      await turn(module, true);
    }
    for (const path of pages()) expect((await miaPages.get(path)).status, path).toBe(200);
  });

  it('the board page’s live updates are refused with the same sentence', async () => {
    await turn('boards', false);
    try {
      const api = await service.request('GET', '/api/v1/boards/1', { token: mia });
      const stream = await miaPages.get('/events?topic=board:1');
      expect(stream.status).toBe(403);
      expect(stream.text).toBe(api.body.error.message);
    } finally {
      await turn('boards', true);
    }
  });
});

describe('the CRM, on but not open to a member without a CRM role, says so and where to go', () => {
  it('answers 403 on the CRM pages, naming the CRM role', async () => {
    const olga = new Browser(service);
    await olga.logIn('olga@example.com', 'olga-password');
    for (const path of ['/crm', `/crm/contacts/${contact}`]) {
      const page = await olga.get(path);
      expect(page.status, path).toBe(403);
      expect(page.text).toContain('The CRM is open only to members with a CRM role');
      expect(page.text).toContain('Ask an administrator for a CRM role');
      expect(page.text).not.toContain('Quinn Quarterly');
    }
  });
});

describe('a read-only workspace says so on every page, as a status at the top', () => {
  const cli = (...argv: string[]) => databaseCommands.get('settings set')!.execute(service.db, argv, { opening: null, pglite: null });
  // as a browser asks: an unknown address answers a page only to one that accepts HTML
  const open = (browser: Browser, path: string) => browser.get(path, { headers: { accept: 'text/html' } });
  const PAGES = [
    '/',
    '/browse/CORE-1',
    '/boards/1',
    '/knowledge',
    '/time',
    '/crm',
    '/notifications',
    '/agents',
    '/agents/activity',
    '/search?q=report',
    '/no-such-page',
  ];

  it('shows no banner while the workspace takes changes', async () => {
    for (const path of PAGES) expect(readOnlyBanner((await open(miaPages, path)).text), path).toBeNull();
  });

  it('shows the operator’s sentence on every page, the refusal of a form and the administrator’s pages included, and none once off', async () => {
    await cli('read_only', 'on');
    try {
      for (const path of PAGES) {
        const page = await open(miaPages, path);
        expect(readOnlyBanner(page.text), path).toEqual({ role: 'status', text: `${READ_ONLY_MESSAGE}.` });
      }
      for (const path of ['/admin/settings', '/admin/audit']) expect(readOnlyBanner((await open(ada, path)).text), path).not.toBeNull();
      const notifications = await miaPages.get('/notifications');
      const refused = await miaPages.post('/notifications/email', formFields(notifications.text, '/notifications/email'));
      expect(refused.status).toBe(403);
      expect(readOnlyBanner(refused.text)?.role).toBe('status');
    } finally {
      await cli('read_only', 'off');
    }
    for (const path of PAGES) expect(readOnlyBanner((await open(miaPages, path)).text), path).toBeNull();
  });
});
