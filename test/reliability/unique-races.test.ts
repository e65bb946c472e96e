import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply, TestService } from '../helpers/service.ts';
import { startTwoNodes, type TwoNodes } from '../helpers/two-nodes.ts';
import { callTool } from '../mcp/mcp-client.ts';

// Every unique rule of the database that a request can race another for answers what the same
// request answers without a race: 201, or the spec's 409/422 — never a 500. On PostgreSQL the
// requests are split between two nodes (two apps, two connection pools, one database); PGlite is
// one process with one connection by design, so there they race on one node.

const RACERS = 10;

let nodes: TwoNodes;
let admin: string;

beforeAll(async () => {
  nodes = await startTwoNodes({ workspace: '../../examples/demo-workspace.yaml' });
  admin = await nodes.first.token('admin@example.com');
}, 120_000);
afterAll(() => nodes?.close());

/** `count` requests at once, every other one through the second node. */
function race(count: number, send: (node: TestService, i: number) => Promise<Reply>): Promise<Reply[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => send(i % 2 === 0 ? nodes.first : nodes.second, i)));
}

const api = (node: TestService, method: string, path: string, body?: unknown) =>
  node.request(method, `/api/v1${path}`, { token: admin, ...(body === undefined ? {} : { body }) });

const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();
const texts = (replies: Reply[]) => replies.filter((r) => r.status >= 500).map((r) => r.text);

describe('one running activity per member (activities_running_idx): every start is 201, one timer runs', () => {
  it('starts 10 timers at once; each stops the one before it, as one after another would', async () => {
    const replies = await race(RACERS, (node, i) => api(node, 'POST', '/activities', { description: `Racer ${i}` }));
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual(Array(RACERS).fill(201));
    const running = await api(nodes.first, 'GET', '/activities?running=true&member=me');
    expect(running.body.activities).toHaveLength(1);
    const all = await api(nodes.first, 'GET', '/activities?member=me&limit=100');
    const ours = all.body.activities.filter((a: { description: string | null }) => a.description?.startsWith('Racer '));
    expect(ours).toHaveLength(RACERS);
  });

  it('starts 10 timers at once through MCP too: no tool call fails', async () => {
    const results = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        callTool(i % 2 ? nodes.second : nodes.first, admin, 'create_activity', { description: `Tool racer ${i}` }),
      ),
    );
    expect(results.filter((r) => r.isError).map((r) => r.content[0]?.text)).toEqual([]);
    expect((await api(nodes.first, 'GET', '/activities?running=true&member=me')).body.activities).toHaveLength(1);
  });
});

describe('slugs unique in a space (pages_slug_idx): every create of one title is 201 with a slug of its own', () => {
  it('creates 10 pages titled alike at once', async () => {
    const create = (node: TestService) => api(node, 'POST', '/knowledge/spaces/HANDBOOK/pages', { title: 'Race day' });
    const replies = await race(RACERS, create);
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual(Array(RACERS).fill(201));
    const slugs = replies.map((r) => r.body.slug as string).sort();
    expect(new Set(slugs).size).toBe(RACERS);
    expect(slugs).toContain('race-day');
    expect(slugs).toContain(`race-day-${RACERS}`);
  });
});

describe('company names unique (companies_name_key): of renames to one name, one is 200 and the others 422', () => {
  it('renames four companies to one name at once', async () => {
    const companies = ['Acme GmbH', 'Globex Corporation', 'Initech', 'Umbrella Labs'];
    const rename = (node: TestService, i: number) =>
      api(node, 'PATCH', `/companies/${encodeURIComponent(companies[i]!)}`, {
        name: i % 2 ? 'Same Name Ltd' : 'same name ltd',
      });
    const replies = await race(companies.length, rename);
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual([200, 422, 422, 422]);
    for (const refused of replies.filter((r) => r.status === 422)) {
      expect(refused.body.error.code).toBe('invalid');
      expect(refused.body.error.message).toMatch(/^\/name: another company is already named "same name ltd"/i);
    }
  });
});

describe('an address belongs to one contact (contact_emails_address_key): one create is 201, the others 422', () => {
  it('creates 10 contacts with one address at once', async () => {
    const create = (node: TestService, i: number) => api(node, 'POST', '/contacts', { name: `Racer ${i}`, email: 'one@race.example' });
    const replies = await race(RACERS, create);
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual([201, ...Array(RACERS - 1).fill(422)]);
  });

  it('adds 10 primary addresses to one contact at once: each is 201, one is primary', async () => {
    const contact = await api(nodes.first, 'POST', '/contacts', { name: 'Addresses', email: 'first@race.example' });
    const add = (node: TestService, i: number) =>
      api(node, 'POST', `/contacts/${contact.body.id}/emails`, { address: `more.${i}@race.example`, primary: true });
    const replies = await race(RACERS, add);
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual(Array(RACERS).fill(201));
    const detail = await api(nodes.first, 'GET', `/contacts/${contact.body.id}`);
    expect(detail.body.emails.filter((e: { primary: boolean }) => e.primary)).toHaveLength(1);
  });

  it('adds 10 primary numbers to one contact at once (contact_phones_primary_key): each 201, one primary', async () => {
    const contact = await api(nodes.first, 'POST', '/contacts', { name: 'Many Numbers', phone: '+1 555 0100' });
    const add = (node: TestService, i: number) =>
      api(node, 'POST', `/contacts/${contact.body.id}/phones`, { number: `+1 555 01${10 + i}`, primary: true });
    const replies = await race(RACERS, add);
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual(Array(RACERS).fill(201));
    const detail = await api(nodes.first, 'GET', `/contacts/${contact.body.id}`);
    expect(detail.body.phones.filter((p: { primary: boolean }) => p.primary)).toHaveLength(1);
  });
});

describe('sprint names unique on a board (sprints_name_per_board): one create is 201, the others 422', () => {
  it('creates 10 sprints of one name at once', async () => {
    const replies = await race(RACERS, (node) => api(node, 'POST', '/boards/1/sprints', { name: 'Race sprint' }));
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual([201, ...Array(RACERS - 1).fill(422)]);
  });

  it('moves one ticket into two sprints at once (sprint_tickets_one_open_sprint): every move is 200', async () => {
    await api(nodes.first, 'POST', '/boards/1/sprints', { name: 'Race sprint B' });
    const move = (node: TestService, i: number) =>
      api(node, 'POST', '/boards/1/backlog/moves', { key: 'ATR-7', sprint: i % 2 ? 'Race sprint' : 'Race sprint B' });
    const replies = await race(RACERS, move);
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual(Array(RACERS).fill(200));
  });
});

describe('label names unique in a project (labels_name_key): every ticket with a new label is 201', () => {
  it('creates 10 tickets with one new label at once', async () => {
    const create = (node: TestService, i: number) =>
      api(node, 'POST', '/tickets', { project: 'ATR', summary: `Labelled ${i}`, labels: ['race-label'] });
    const replies = await race(RACERS, create);
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual(Array(RACERS).fill(201));
    expect(new Set(replies.map((r) => r.body.key)).size).toBe(RACERS);
  });
});

describe('request type keys unique in a project (request_types_key_per_project): one 201, the others 422', () => {
  it('creates 10 forms of one key at once', async () => {
    const form = { key: 'race-form', ticket_type: 'Question' };
    const create = (node: TestService, i: number) => api(node, 'POST', '/projects/HELP/request-types', { ...form, name: `Race form ${i}` });
    const replies = await race(RACERS, create);
    expect(texts(replies)).toEqual([]);
    expect(statuses(replies)).toEqual([201, ...Array(RACERS - 1).fill(422)]);
  });
});
