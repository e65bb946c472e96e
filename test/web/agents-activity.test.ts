import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { Browser, send } from '../oauth/support.ts';

// "What my agents did" (spec 5.1) in people's words, over every module: what an agent changed as
// the member in tickets, time, the knowledge base and the CRM, each with the agent's name, a
// duration in words and every time in the member's own time zone.

const WORKSPACE = `
workspace: { name: Agents, rest_api: true, mcp: true, default_priority: Medium, priorities: [High, Medium, Low] }
members:
  - { name: Mia Seller, email: mia@example.com, password: mia-password, timezone: Europe/Berlin }
  - { name: Olga Outsider, email: olga@example.com, password: olga-password }
roles:
  - name: Member
    permissions: [project:view, ticket:create, ticket:edit, ticket:transition, ticket:comment, time:log, knowledge:read, knowledge:edit]
  - { name: CRM editor, permissions: [crm:view, crm:edit] }
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
spaces:
  - { key: ENG, name: Engineering, project: CORE }
crm:
  roles: [{ role: CRM editor, members: [mia@example.com] }]
`;

let service: TestService;
let agent: string;

beforeAll(async () => {
  service = await startTestService({ workspace: WORKSPACE });
  agent = await service.token('mia@example.com', 'write', 'Night shift bot');
});
afterAll(async () => service?.close());

const api = (method: string, path: string, json?: unknown) =>
  send(service, method, `/api/v1${path}`, { headers: { authorization: `Bearer ${agent}` }, ...(json === undefined ? {} : { json }) });

async function pageOf(email: string, password: string): Promise<{ status: number; text: string }> {
  const browser = new Browser(service);
  await browser.logIn(email, password);
  return browser.get('/agents/activity');
}

/** The table's rows as text, tags dropped: what a person reads. */
function rowsOf(page: string): string[] {
  const body = page.slice(page.indexOf('<tbody>'), page.indexOf('</tbody>'));
  return body
    .split('</tr>')
    .map((row) =>
      row
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
}

describe('"What my agents did" covers every module, in words and in the member’s time zone', () => {
  it('lists the ticket, the work logged, the time entry, the knowledge page and the contact an agent made as Mia', async () => {
    const ticket = await api('POST', '/tickets', { project: 'CORE', summary: 'Nightly import' });
    expect(ticket.status).toBe(201);
    expect((await api('POST', `/tickets/${ticket.json.key}/worklogs`, { time_spent_seconds: 900 })).status).toBe(201);
    const activity = await api('POST', '/activities', {
      description: 'Reviewed the import',
      start: '2026-01-05T09:00:00Z',
      end: '2026-01-05T10:30:00Z',
    });
    expect(activity.status).toBe(201);
    expect((await api('PATCH', `/activities/${activity.json.id}`, { start: '2026-01-05T08:00:00Z' })).status).toBe(200);
    expect((await api('POST', '/knowledge/spaces/ENG/pages', { title: 'Import runbook', body: 'Run it at night.' })).status).toBe(201);
    expect((await api('POST', '/contacts', { name: 'Nora Night', email: 'nora@night.example' })).status).toBe(201);

    const page = await pageOf('mia@example.com', 'mia-password');
    expect(page.status).toBe(200);
    const rows = rowsOf(page.text);
    const row = (needle: string) => rows.find((r) => r.includes(needle));
    expect(row(`created ${ticket.json.key}`)).toContain('Night shift bot');
    expect(row(`logged work on ${ticket.json.key}`)).toMatch(/Time spent: (none → )?15m/);
    expect(row('created the time entry “Reviewed the import”')).toContain('Night shift bot');
    expect(row('created the page Import runbook in ENG')).toContain('Night shift bot');
    expect(row('created the contact Nora Night')).toContain('Night shift bot');
    expect(page.text).toContain('href="/knowledge/ENG/pages/import-runbook"');

    // nothing raw: no field names as stored, no ISO timestamps, every time in Europe/Berlin
    expect(page.text).not.toMatch(/time_spent_seconds|_at:/);
    expect(rows.join('\n')).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    const zones = [...page.text.matchAll(/<time datetime="[^"]+" title="([^"]+)">/g)].map((m) => m[1]);
    expect(zones.length).toBeGreaterThanOrEqual(5);
    expect(new Set(zones)).toEqual(new Set(['Europe/Berlin']));
    // the activity's start, 09:00 UTC, is 10:00 in Berlin in January
    // 09:00 and 08:00 UTC are 10:00 and 09:00 in Berlin in January
    expect(row('changed the time entry “Reviewed the import”')).toContain('Started: 5 Jan 2026, 10:00 → 5 Jan 2026, 09:00');
  });

  it('names nothing of a record the member can no longer see', async () => {
    const page = await pageOf('olga@example.com', 'olga-password');
    expect(page.text).toContain('id="no-activity"');
    expect(page.text).not.toContain('Nora Night');
  });
});
