import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { databaseCommands } from '../../src/cli/database-commands.ts';
import type { Operation } from '../../src/core/operation.ts';
import { READ_ONLY_MESSAGE, SETTING_SWITCHES } from '../../src/core/settings.ts';
import { registry } from '../../src/modules/index.ts';
import { buildToolset } from '../../src/surfaces/mcp/tools.ts';
import { openDatabase, type Database } from '../../src/storage/database.ts';
import { postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type Reply, type TestService } from '../helpers/service.ts';
import { postMcp, request as rpc } from '../mcp/mcp-client.ts';
import { Browser, exchange, formFields, me, obtainCode, refreshWith, registerClient } from '../oauth/support.ts';

// Spec 5.6: "A workspace that the hosted service has made read-only for non-payment refuses every
// change with 403." The operator's switch (`atrium settings set read_only on|off`), across every
// operation of the registry and of the spec's operation list, through both doors; the pages, the
// workspace file and the CLI; and what keeps working (reads, logging in, OAuth, tokens).

const SPEC_LIST = new URL('../fixtures/shared/spec/operations.json', import.meta.url);
const SPEC_OPERATIONS = JSON.parse(fs.readFileSync(SPEC_LIST, 'utf8')) as {
  operations: { method: string; path: string; read: boolean }[];
};
const ADMIN = { email: 'admin@example.com', password: 'atrium-demo' };
const READ_ONLY = /read-only/;

/** Records the operations' arguments name, found through the API before the switch. */
interface Ids {
  felix: string;
  globex: string;
  activityToEdit: string;
  activityToDelete: string;
  runningActivity: string;
  followUp: string;
  onboardingVersion: number;
}

type Args = (ids: Ids) => Record<string, unknown>;

/**
 * Every change of the registry with arguments the demo's administrator may use, in an order in
 * which each one succeeds once changes are let in again: so a refusal below is the workspace's,
 * never the request's.
 */
const WRITES: [string, Args][] = [
  ['reorder_request_types', () => ({ project: 'HELP', order: ['report-problem', 'billing-question'] })],
  ['update_request_type', () => ({ project: 'HELP', request_type: 'billing-question', name: 'Billing questions' })],
  ['create_request_type', () => ({ project: 'HELP', key: 'read-only-form', name: 'A form', ticket_type: 'Question' })],
  ['retire_request_type', () => ({ project: 'HELP', request_type: 'status-page-report' })],
  ['create_ticket', () => ({ project: 'ATR', summary: 'Written while the workspace takes changes', type: 'Task' })],
  ['update_ticket', () => ({ key: 'ATR-7', summary: 'Operations guide for PostgreSQL, renamed' })],
  ['transition_ticket', () => ({ key: 'ATR-3', transition: 'Start work' })],
  ['assign_ticket', () => ({ key: 'ATR-6', assignee: 'Marco Rossi' })],
  ['add_comment', () => ({ key: 'ATR-7', body: 'A comment the read-only workspace refused' })],
  ['log_work', () => ({ key: 'ATR-7', time_spent: '1h' })],
  ['move_card', () => ({ board: 1, key: 'ATR-6', column: 'In Progress' })],
  ['create_sprint', () => ({ board: 1, name: 'Sprint 16' })],
  ['update_sprint', () => ({ board: 1, sprint: 'Sprint 15', goal: 'Pages and search, read-only or not' })],
  ['move_to_sprint', () => ({ board: 1, key: 'ATR-13', sprint: 'Sprint 15' })],
  ['complete_sprint', () => ({ board: 1, sprint: 'Sprint 14', move_open_to: 'Sprint 15' })],
  ['start_sprint', () => ({ board: 1, sprint: 'Sprint 15' })],
  ['delete_sprint', () => ({ board: 1, sprint: 'Sprint 16' })],
  ['create_page', () => ({ space: 'ENG', title: 'Written once changes are let in', body: 'Hello.' })],
  ['update_page', (ids) => ({ space: 'ENG', page: 'onboarding', version: ids.onboardingVersion, body: 'Read on.' })],
  ['move_page', () => ({ space: 'ENG', page: 'legacy-auth-notes', parent: 'architecture' })],
  ['archive_page', () => ({ space: 'ENG', page: 'sprint-14-review' })],
  ['create_activity', () => ({ description: 'Review', start: '2026-11-19T09:00:00Z', duration: '1h', project: 'ATR' })],
  ['update_activity', (ids) => ({ id: ids.activityToEdit, description: 'Renamed review' })],
  ['delete_activity', (ids) => ({ id: ids.activityToDelete })],
  ['stop_activity', (ids) => ({ id: ids.runningActivity })],
  ['create_contact', () => ({ name: 'Nora Read', company: 'Acme GmbH', email: 'nora.read@acme.example' })],
  ['update_contact', (ids) => ({ id: ids.felix, job_title: 'Head of procurement' })],
  ['add_contact_email', (ids) => ({ id: ids.felix, address: 'felix@acme.example' })],
  ['add_contact_phone', (ids) => ({ id: ids.felix, number: '+49 711 555 0199' })],
  ['update_company', (ids) => ({ id: ids.globex, industry: 'Utilities' })],
  ['log_interaction', (ids) => ({ kind: 'note', subject: 'Asked about the renewal', contact: ids.felix })],
  ['complete_follow_up', (ids) => ({ id: ids.followUp })],
];

/** Every read of the registry, with arguments that find something. */
const READS: [string, Args][] = [
  ['whoami', () => ({})],
  ['list_projects', () => ({})],
  ['describe_project', () => ({ project: 'ATR' })],
  ['list_request_types', () => ({ project: 'HELP' })],
  ['get_request_type', () => ({ project: 'HELP', request_type: 'billing-question' })],
  ['search_tickets', () => ({ project: 'ATR' })],
  ['get_ticket', () => ({ key: 'ATR-7' })],
  ['list_transitions', () => ({ key: 'ATR-7' })],
  ['list_boards', () => ({})],
  ['get_board', () => ({ board: 1 })],
  ['get_backlog', () => ({ board: 1 })],
  ['list_sprints', () => ({ board: 1 })],
  ['list_spaces', () => ({})],
  ['get_page_tree', () => ({ space: 'ENG' })],
  ['get_page', () => ({ space: 'ENG', page: 'welcome' })],
  ['search_pages', () => ({ query: 'deploy' })],
  ['list_activities', () => ({})],
  ['get_activity', (ids) => ({ id: ids.activityToEdit })],
  ['list_organizations', () => ({})],
  ['list_phases', () => ({})],
  ['report_hours', () => ({ from: '2026-11-01', to: '2026-11-30' })],
  ['search_contacts', () => ({ q: 'Felix' })],
  ['get_contact', (ids) => ({ id: ids.felix })],
  ['search_companies', () => ({})],
  ['get_company', (ids) => ({ id: ids.globex })],
  ['list_interactions', (ids) => ({ contact: ids.felix })],
  ['list_follow_ups', () => ({})],
];

const toolset = buildToolset(registry);
const operation = (name: string): Operation => {
  const op = registry.operations.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}`);
  return op;
};

let service: TestService;
let writer: string;
let ids: Ids;
let tables: string[];

/** `atrium settings set …` (or another command) run on the service's database, as the control socket runs it. */
function cli(command: string, ...argv: string[]): Promise<string> {
  return databaseCommands.get(command)!.execute(service.db, argv, { opening: null, pglite: null });
}

/** Every table's content as one digest (tokens left out: a read stamps its token's last use). */
async function digest(): Promise<string> {
  const parts = tables.map(
    (name) => sql`select ${name} as name, md5(coalesce(string_agg(md5(x::text), '' order by md5(x::text)), '')) as hash
      from ${sql.table(name)} x`,
  );
  const { rows } = await sql<{ name: string; hash: string }>`${sql.join(parts, sql` union all `)}`.execute(service.db);
  return rows.map((r) => `${r.name}:${r.hash}`).join(',');
}

/** A tool's arguments as the REST request of its operation: path parameters filled, GET arguments as the query. */
function restRequest(op: Operation, args: Record<string, unknown>): { path: string; body?: Record<string, unknown> } {
  const entry = toolset.entries.find((e) => e.op === op);
  let route = op.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [argument, value] of Object.entries(args)) {
    // an operation without a tool (list_transitions) takes its arguments by their REST names
    const part = route.includes(`:${argument}`) ? 'params' : op.method === 'GET' ? 'query' : 'body';
    const target = entry?.arguments.get(argument) ?? { part, name: argument };
    if (target.part === 'params') route = route.replace(`:${target.name}`, encodeURIComponent(String(value)));
    else if (target.part === 'query') query.append(target.name, String(value));
    else body[target.name] = value;
  }
  return { path: `/api/v1${route}${query.size ? `?${query}` : ''}`, ...(op.method === 'GET' ? {} : { body }) };
}

function viaRest(op: Operation, args: Record<string, unknown>, token = writer, rawBody?: string): Promise<Reply> {
  const { path: url, body } = restRequest(op, args);
  return service.request(op.method, url, { token, body: rawBody ?? body });
}

/** A tools/call answered 200; its result as the client sees it. */
interface ToolResult {
  isError: boolean;
  content: { text: string }[];
}

async function viaMcp(name: string, args: Record<string, unknown>, token = writer): Promise<ToolResult> {
  const reply = await postMcp(service, rpc('tools/call', { name, arguments: args }), { token });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.result;
}

async function arrange(): Promise<Ids> {
  const post = async (url: string, body: unknown) => {
    const reply = await service.request('POST', url, { token: writer, body });
    if (reply.status !== 201) throw new Error(`arranging ${url}: ${reply.status} ${reply.text}`);
    return reply.body;
  };
  const get = async (url: string) => (await service.request('GET', url, { token: writer })).body;
  const felix = (await get('/api/v1/contacts?q=Felix')).contacts[0].id as string;
  const globex = (await get('/api/v1/companies?q=Globex')).companies[0].id as string;
  const activity = (description: string) =>
    post('/api/v1/activities', { description, start: '2026-11-18T09:00', duration: '30m', timezone: 'UTC' });
  const activityToEdit = (await activity('To rename')).id as string;
  const activityToDelete = (await activity('To delete')).id as string;
  const runningActivity = (await post('/api/v1/activities', { description: 'Running' })).id as string;
  const task = { kind: 'task', subject: 'Call Felix back', contact: felix, due_at: '2027-01-11T09:00:00Z' };
  const followUp = (await post('/api/v1/interactions', task)).id as string;
  const onboardingVersion = (await get('/api/v1/knowledge/spaces/ENG/pages/onboarding')).version as number;
  return { felix, globex, activityToEdit, activityToDelete, runningActivity, followUp, onboardingVersion };
}

beforeAll(async () => {
  service = await startTestService({ workspace: '../../examples/demo-workspace.yaml', rateLimit: 100_000 });
  writer = await service.token(ADMIN.email, 'write', 'operator check');
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not like 'kysely_%' and table_name <> 'tokens'
    order by table_name`.execute(service.db);
  tables = rows.map((r) => r.name);
  ids = await arrange();
}, 120_000);
afterAll(() => service?.close());

describe('the tables cover every operation of the registry and of the spec', () => {
  it('lists every write and every read once', () => {
    const named = [...WRITES, ...READS].map(([name]) => name);
    expect(new Set(named).size).toBe(named.length);
    const names = (table: [string, Args][]) => table.map(([name]) => name).sort();
    const registered = (access: string) =>
      registry.operations
        .filter((op) => op.access === access)
        .map((op) => op.name)
        .sort();
    expect(names(WRITES)).toEqual(registered('write'));
    expect(names(READS)).toEqual(registered('read'));
    // the spec names path parameters its own way (`{key}`); the registry, Fastify's (`:project`)
    const route = (method: string, path: string) => `${method} ${path.replace(/\{\w+\}|:\w+/g, '{}')}`;
    const access = new Map(registry.operations.map((op) => [route(op.method, op.path), op.access]));
    for (const spec of SPEC_OPERATIONS.operations) {
      const key = route(spec.method, spec.path);
      expect(access.get(key), key).toBe(spec.read ? 'read' : 'write');
    }
  });
});

describe('the operator switches the workspace read-only with the CLI', () => {
  it('settings set read_only on says what it did', async () => {
    expect(await cli('settings set', 'read_only', 'on')).toMatch(/^switched read-only on: every change is refused/);
    expect(await cli('settings set', 'read_only', 'on')).toBe('read-only was already on');
  });
});

describe('a read-only workspace refuses every change with 403 saying so, and changes nothing (spec 5.6)', () => {
  let before: string;
  beforeAll(async () => {
    before = await digest();
  });

  it.each(WRITES)('%s: REST and MCP', async (name, args) => {
    const op = operation(name);
    const rest = await viaRest(op, args(ids));
    expect(rest.status, rest.text).toBe(403);
    expect(rest.body.error).toEqual({ code: 'forbidden', message: READ_ONLY_MESSAGE });
    const tool = await viaMcp(name, args(ids));
    expect(tool.isError).toBe(true);
    expect(tool.content[0]!.text).toBe(READ_ONLY_MESSAGE);
    expect(await digest()).toBe(before);
  });

  // Decided as the read token's refusal is: before the input is read, so that a request that
  // cannot succeed is told why, not what is wrong with its body.
  it.each(WRITES)('%s: refused before its input is validated', async (name, args) => {
    const rest = await viaRest(operation(name), args(ids), writer, 'not json');
    expect(rest.status, rest.text).toBe(403);
    expect(rest.body.error.message).toBe(READ_ONLY_MESSAGE);
    const tool = await viaMcp(name, { no_such_argument: true });
    expect(tool.content[0]!.text).toBe(READ_ONLY_MESSAGE);
    expect(await digest()).toBe(before);
  });

  it('shows a client the records as they were', async () => {
    const ticket = await service.request('GET', '/api/v1/tickets/ATR-7', { token: writer });
    expect(ticket.body.summary).toBe('Write the operations guide for PostgreSQL deployments');
    expect(ticket.body.comments).toEqual([]);
    const tickets = await service.request('GET', '/api/v1/tickets?project=ATR', { token: writer });
    expect(tickets.body.total).toBe(14);
    const sprints = await service.request('GET', '/api/v1/boards/1/sprints', { token: writer });
    const states = sprints.body.sprints.map((s: { name: string; state: string }) => `${s.name} ${s.state}`);
    expect(states).toEqual(['Sprint 14 active', 'Sprint 15 future']);
  });

  // spec 9: the tool list changes only when an administrator switches a module or feature
  it('MCP still initializes and lists every tool, the write tools among them', async () => {
    const listed = await postMcp(service, rpc('tools/list', {}), { token: writer });
    expect(listed.status).toBe(200);
    const names = listed.body.result.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(toolset.entries.map((e) => e.name));
    const client = { name: 'test', version: '1' };
    const initialize = rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: client });
    const initialized = await postMcp(service, initialize, { token: writer });
    expect(initialized.status).toBe(200);
    expect(initialized.body.result.protocolVersion).toBe('2025-11-25');
  });
});

describe('reads keep working in a read-only workspace', () => {
  it.each(READS)('%s: REST and MCP', async (name, args) => {
    const op = operation(name);
    const rest = await viaRest(op, args(ids));
    expect(rest.status, rest.text).toBe(200);
    if (!op.tool) return;
    const tool = await viaMcp(name, args(ids));
    expect(tool.isError, tool.content[0]?.text).toBe(false);
  });
});

describe('logging in, OAuth clients and tokens keep working in a read-only workspace, since reading needs them', () => {
  it('registers a client, logs in, consents, exchanges, refreshes; the token reads and changes nothing', async () => {
    const browser = new Browser(service);
    expect((await browser.logIn(ADMIN.email, ADMIN.password)).status).toBe(303);
    const client = await registerClient(service);
    const flow = await obtainCode(service, { client, browser });
    const tokens = await exchange(service, flow);
    expect(tokens.status, tokens.text).toBe(200);
    const refreshed = await refreshWith(service, client, tokens.json.refresh_token);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect((await me(service, refreshed.json.access_token)).status).toBe(200);
    const token = refreshed.json.access_token as string;
    const change = await viaRest(operation('create_ticket'), { project: 'ATR', summary: 'Through OAuth' }, token);
    expect(change.status).toBe(403);
    expect(change.body.error.message).toBe(READ_ONLY_MESSAGE);
  });

  it('a member makes a personal token on the AI agents page, and the CLI mints one', async () => {
    const browser = new Browser(service);
    await browser.logIn(ADMIN.email, ADMIN.password);
    const page = await browser.get('/agents');
    const form = { ...formFields(page.text, '/agents/tokens'), name: 'page token', access: 'write', lifetime: '30' };
    const made = await browser.post('/agents/tokens', form);
    expect(made.status, made.text).toBe(303);
    const secret = /id="new-token">([^<]+)</.exec((await browser.get('/agents')).text)?.[1];
    expect(secret).toBeDefined();
    expect((await me(service, secret!)).status).toBe(200);
    const minted = await cli('token create', '--member', ADMIN.email, '--name', 'cli token', '--access', 'read');
    expect((await me(service, minted.trim())).status).toBe(200);
  });
});

describe('the pages refuse every form that changes the workspace while it is read-only', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = new Browser(service);
    await browser.logIn(ADMIN.email, ADMIN.password);
  });

  it('the Watch button of a ticket page answers 403 saying so, and the ticket is watched as before', async () => {
    const page = await browser.get('/browse/ATR-7');
    const watching = page.text.includes('Stop watching');
    const fields = formFields(page.text, '/browse/ATR-7/watch');
    const answer = await browser.post('/browse/ATR-7/watch', fields);
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(READ_ONLY);
    expect((await browser.get('/browse/ATR-7')).text.includes('Stop watching')).toBe(watching);
  });

  it('the email choice on the notifications page answers 403, and the choice stays', async () => {
    const page = await browser.get('/notifications');
    const wanted = /name="email" value="on" checked/.test(page.text);
    const form = { ...formFields(page.text, '/notifications/email'), ...(wanted ? {} : { email: 'on' }) };
    const answer = await browser.post('/notifications/email', form);
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(READ_ONLY);
    expect(/name="email" value="on" checked/.test((await browser.get('/notifications')).text)).toBe(wanted);
  });

  it("the administrator's settings page shows read-only on, offers no switch for it; saving leaves it on", async () => {
    const page = await browser.get('/admin/settings');
    expect(page.text).toMatch(/id="read-only">Read-only: <strong>on<\/strong>/);
    expect(page.text).not.toContain('name="read_only"');
    const csrf = formFields(page.text, '/admin/settings');
    const on = Object.fromEntries(SETTING_SWITCHES.map((name) => [name, 'on']));
    const all: Record<string, string> = { ...csrf, ...on };
    // the doors and modules stay the administrator's to switch: they change no record
    const { mcp: _mcp, ...mcpOff } = all;
    expect((await browser.post('/admin/settings', mcpOff)).status).toBe(303);
    expect((await postMcp(service, rpc('tools/list', {}), { token: writer })).status).toBe(403);
    expect((await browser.post('/admin/settings', all)).status).toBe(303);
    expect((await postMcp(service, rpc('tools/list', {}), { token: writer })).status).toBe(200);
    expect((await browser.get('/admin/settings')).text).toMatch(/Read-only: <strong>on<\/strong>/);
    expect((await viaRest(operation('create_ticket'), { project: 'ATR', summary: 'x' })).status).toBe(403);
  });
});

describe('the workspace file and the CLI commands that change the workspace are refused while it is read-only', () => {
  let file: string;
  beforeAll(() => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-read-only-')), 'more.yaml');
    fs.writeFileSync(file, 'members:\n  - { name: Rita Reader, email: rita@example.com }\n');
  });

  it('workspace apply is refused and applies nothing', async () => {
    const before = await digest();
    const refused = cli('workspace apply', file);
    await expect(refused).rejects.toThrow(/^workspace apply: the workspace is read-only, so nothing was changed; /);
    await expect(refused).rejects.toThrow(/"atrium settings set read_only off" lets changes in again$/);
    expect(await digest()).toBe(before);
  });

  it('member add is refused and adds nobody', async () => {
    const before = await digest();
    const added = cli('member add', '--email', 'sid@example.com', '--name', 'Sid');
    await expect(added).rejects.toThrow(/^member add: the workspace is read-only/);
    expect(await digest()).toBe(before);
    expect(await cli('member list')).not.toContain('sid@example.com');
  });
});

describe('switching read-only off restores every change', () => {
  beforeAll(async () => {
    const said = await cli('settings set', 'read_only', 'off');
    expect(said).toBe('switched read-only off: the workspace takes changes again');
  });

  it.each(WRITES)('%s succeeds with the arguments refused before', async (name, args) => {
    const op = operation(name);
    const reply = await viaRest(op, args(ids));
    expect(reply.status, reply.text).toBe(op.status);
  });

  it('a change through MCP succeeds', async () => {
    const tool = await viaMcp('add_comment', { key: 'ATR-7', body: 'Through MCP again' });
    expect(tool.isError, tool.content[0]?.text).toBe(false);
    const ticket = await service.request('GET', '/api/v1/tickets/ATR-7', { token: writer });
    expect(ticket.body.comments.map((c: { body: { text: string } }) => c.body.text)).toContain('Through MCP again');
  });

  it('the page forms, the workspace file and member add work again', async () => {
    const browser = new Browser(service);
    await browser.logIn(ADMIN.email, ADMIN.password);
    const page = await browser.get('/browse/ATR-8');
    expect((await browser.post('/browse/ATR-8/watch', formFields(page.text, '/browse/ATR-8/watch'))).status).toBe(303);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-read-only-')), 'more.yaml');
    fs.writeFileSync(file, 'members:\n  - { name: Rita Reader, email: rita@example.com }\n');
    expect(await cli('workspace apply', file)).toMatch(/^applied more.yaml: members: 1 created/);
    await cli('member add', '--email', 'sid@example.com', '--name', 'Sid');
    expect(await cli('member list')).toContain('sid@example.com');
  });
});

describe('each turn of the switch is in the audit log, made by the atrium CLI', () => {
  it('shows read_only switched on and off', async () => {
    const browser = new Browser(service);
    await browser.logIn(ADMIN.email, ADMIN.password);
    const audit = (await browser.get('/admin/audit')).text;
    const rows = audit
      .split('<tbody>')[1]!
      .split('</tr>')
      .filter((row) => row.includes('workspace setting read_only'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toContain('atrium CLI');
  });
});

// Runs in the PostgreSQL pass: PGlite is one process by design.
describe.runIf(postgresServerUrl() !== null)('the switch takes effect on every node at its next request', () => {
  let second: FastifyInstance;
  let secondDatabase: Database;

  beforeAll(async () => {
    const name = (await sql<{ name: string }>`select current_database() as name`.execute(service.db)).rows[0]!.name;
    const url = new URL(postgresServerUrl()!);
    url.pathname = `/${name}`;
    secondDatabase = await openDatabase({ engine: 'postgres', url: url.href });
    second = await buildApp({ config: { publicUrl: service.publicUrl, logLevel: 'silent' }, database: secondDatabase });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await secondDatabase?.close();
  });

  const comment = (body: string) =>
    second.inject({
      method: 'POST',
      url: '/api/v1/tickets/ATR-9/comments',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ body }),
    });

  it('the other node, holding the token, refuses a change at once and takes it again once switched off', async () => {
    expect((await comment('Before the switch')).statusCode).toBe(201);
    await cli('settings set', 'read_only', 'on');
    try {
      const refused = await comment('While read-only');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.message).toBe(READ_ONLY_MESSAGE);
    } finally {
      await cli('settings set', 'read_only', 'off');
    }
    expect((await comment('After the switch')).statusCode).toBe(201);
  });
});
