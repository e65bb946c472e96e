import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StructureStore } from '../../src/core/structure-cache.ts';
import { findTicketDetail, nameTicketDetail } from '../../src/modules/tickets/detail.ts';
import { summaryCellsJson, summariesOf, type SummaryCells } from '../../src/modules/tickets/index.ts';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// Reads keep the workspace structure in memory keyed by config_version (ADR 0032): a change to
// the workspace file is seen by the very next request.

const FILE = fs.readFileSync(new URL('../fixtures/tickets-workspace.yaml', import.meta.url), 'utf8');

let service: TestService;
let lee: string;

beforeAll(async () => {
  service = await startTestService({ workspace: 'tickets-workspace.yaml' });
  lee = await service.token('lee@example.com');
});
afterAll(() => service.close());

const get = (path: string) => service.request('GET', `/api/v1${path}`, { token: lee });

/**
 * A request as the service makes one: it read the current config_version with its token, and
 * later statements may see changes committed since. Its structure store is its own.
 */
async function requestAtThisVersion() {
  const { rows } = await sql<{ version: string }>`select config_version::text as version from workspace_settings`.execute(service.db);
  return {
    db: service.db,
    structure: new StructureStore(),
    settings: { configVersion: Number(rows[0]!.version) },
    publicUrl: 'http://atrium.test',
  };
}

/** An administrator's scope: every ticket visible, so findTicketDetail reads everything. */
const ADMIN_SCOPE = { memberId: 'unused', isAdmin: true, projectIds: null, levelIds: [] };
const apply = (text: string) => applyWorkspace(service.db, parseWorkspaceYaml(text, 'tickets-workspace.yaml'));

describe('workspace structure: a change to the workspace file shows at the next read', () => {
  it('shows a renamed transition and a new component after the file is applied again', async () => {
    const before = await get('/tickets/TIX-3');
    expect(before.body.transitions.map((t: { name: string }) => t.name)).toContain('Start');
    expect((await get('/projects/TIX')).body.components).toEqual(['API', 'Web']);

    await apply(
      FILE.replace('- { name: Start, from: [To Do], to: In Progress }', '- { name: Begin work, from: [To Do], to: In Progress }').replace(
        'components: [API, ',
        'components: [API, Billing, ',
      ),
    );

    const after = await get('/tickets/TIX-3');
    const names = after.body.transitions.map((t: { name: string }) => t.name);
    expect(names).toContain('Begin work');
    expect(names).not.toContain('Start');
    expect((await get('/tickets/TIX-3/transitions')).body.transitions.map((t: { name: string }) => t.name)).toContain('Begin work');
    expect((await get('/projects/TIX')).body.components).toEqual(['API', 'Billing', 'Web']);
  });

  it('lists the assignable members the file sets, with their names as the file gives them', async () => {
    const assignable = async () => ((await get('/projects/TIX')).body.assignable_users as { name: string }[]).map((m) => m.name).sort();
    expect(await assignable()).toEqual(['Ada Admin', 'Dev One', 'Dev Two', 'Lee Lead']);
    const changed = FILE.replace(
      '- { name: Developers, members: [dev1@example.com, dev2@example.com] }',
      '- { name: Developers, members: [dev1@example.com, vic@example.com] }',
    ).replace(
      '- { name: Dev One, email: dev1@example.com, username: dev1 }',
      '- { name: Dev Uno, email: dev1@example.com, username: dev1 }',
    );
    expect(changed).not.toBe(FILE);
    await apply(changed);
    expect(await assignable()).toEqual(['Ada Admin', 'Dev Uno', 'Lee Lead', 'Vic Viewer']);
    await apply(FILE);
    expect(await assignable()).toEqual(['Ada Admin', 'Dev One', 'Dev Two', 'Lee Lead']);
  });

  it('lists a label a new ticket added, though labels are not cached structure', async () => {
    expect((await get('/projects/TIX')).body.labels).not.toContain('fresh-label');
    const created = await service.request('POST', '/api/v1/tickets', {
      token: lee,
      body: { project: 'TIX', summary: 'Carries a new label', labels: ['fresh-label'] },
    });
    expect(created.status).toBe(201);
    expect((await get('/projects/TIX')).body.labels).toContain('fresh-label');
  });
});

describe('security levels: a level granted or taken shows at the next request (read with the token whenever config_version moved)', () => {
  it('lets a member in at once when the file adds them to the level, and out at once when it takes them off', async () => {
    const dev2 = await service.token('dev2@example.com');
    const asDev2 = (path: string) => service.request('GET', `/api/v1${path}`, { token: dev2 });
    expect((await asDev2('/tickets/TIX-2')).status).toBe(403);
    expect((await asDev2('/tickets?project=TIX')).body.tickets.map((t: { key: string }) => t.key)).not.toContain('TIX-2');

    const granted = FILE.replace(
      'members: [dev1@example.com], roles: [Lead]',
      'members: [dev1@example.com, dev2@example.com], roles: [Lead]',
    );
    expect(granted).not.toBe(FILE);
    await apply(granted);
    expect((await asDev2('/tickets/TIX-2')).status).toBe(200);
    expect((await asDev2('/tickets?project=TIX')).body.tickets.map((t: { key: string }) => t.key)).toContain('TIX-2');

    await apply(FILE);
    expect((await asDev2('/tickets/TIX-2')).status).toBe(403);
    expect((await asDev2('/tickets?query=TIX-2')).body.tickets).toEqual([]);
  });
});

// Lists (search, filters, boards, backlogs) name a ticket's project, type, priority and status
// from the structure kept in memory, not from the database per row.
const transition = (key: string, name: string) =>
  service.request('POST', `/api/v1/tickets/${key}/transitions`, { token: lee, body: { transition: name } });

/** The fixture with one more status (category in progress) and a transition into it from anywhere. */
function withStatus(text: string, status: string, transitionName: string): string {
  const changed = text
    .replace(
      '      - { name: Done, category: done }\n',
      `      - { name: Done, category: done }\n      - { name: ${status}, category: in_progress }\n`,
    )
    .replace(
      '      - { name: Reopen, from: [Done], to: To Do }',
      `      - { name: Reopen, from: [Done], to: To Do }\n      - { name: ${transitionName}, from: any, to: ${status} }`,
    );
  expect(changed.split(status).length - 1).toBe(2);
  return changed;
}

const BLOCKED = withStatus(FILE, 'Blocked', 'Block')
  .replace('priorities: [High, Medium, Low]', 'priorities: [Urgent, High, Medium, Low]')
  .replace('ticket_types: [Task, Bug,', 'ticket_types: [Task, Bug, Spike,');

describe("lists name a ticket's status, priority and type as the workspace file has them at that request", () => {
  it('shows a status, priority and type the file adds in filters and search at the next request', async () => {
    const listed = async () =>
      (await get('/tickets?project=TIX&sort=key&limit=100')).body.tickets.find((t: { key: string }) => t.key === 'TIX-3');
    expect(await listed()).toMatchObject({ key: 'TIX-3', project: 'TIX', status: { name: 'To Do' }, priority: null, type: 'Task' });

    await apply(BLOCKED);
    expect((await transition('TIX-3', 'Block')).status).toBe(200);
    expect(
      (await service.request('PATCH', '/api/v1/tickets/TIX-3', { token: lee, body: { priority: 'Urgent', type: 'Spike' } })).status,
    ).toBe(200);

    expect(await listed()).toMatchObject({
      key: 'TIX-3',
      project: 'TIX',
      status: { name: 'Blocked', category: 'in_progress' },
      priority: 'Urgent',
      type: 'Spike',
    });
    const found = await get('/tickets?query=TIX-3');
    expect(found.body.tickets[0]).toMatchObject({
      key: 'TIX-3',
      status: { name: 'Blocked', category: 'in_progress' },
      priority: 'Urgent',
      type: 'Spike',
    });
  });

  it("reads the names again when the request began before the change that added its ticket's status", async () => {
    // A request keeps the config_version it read with its token, while its later statements see
    // a change committed since: a status the store, at that version, has never heard of.
    const request = await requestAtThisVersion();
    const cellsOf = async (key: string) =>
      (await sql<{ cells: SummaryCells }>`select ${summaryCellsJson} as cells from tickets t where t.key = ${key}`.execute(service.db))
        .rows[0]!.cells;
    expect((await summariesOf(request, [await cellsOf('TIX-1')]))[0]).toMatchObject({ key: 'TIX-1', status: { name: 'In Progress' } });

    await apply(withStatus(BLOCKED, 'Parked', 'Park'));
    expect((await transition('TIX-1', 'Park')).status).toBe(200);

    const [summary] = await summariesOf(request, [await cellsOf('TIX-1')]);
    expect(summary).toMatchObject({
      key: 'TIX-1',
      project: 'TIX',
      status: { name: 'Parked', category: 'in_progress' },
      url: 'http://atrium.test/browse/TIX-1',
    });
  });
});

// A ticket's detail names its project, type, status, priority, resolution and security level from
// the same structure kept in memory (detail.ts, nameTicketDetail).
const PARKED = withStatus(BLOCKED, 'Parked', 'Park');

describe("a ticket's detail names its type, status, priority and security level as the workspace file has them at that request", () => {
  it('shows the names the file gives them at the next request', async () => {
    await apply(PARKED);
    const names = async () => {
      const [one, two, three] = await Promise.all(['TIX-1', 'TIX-2', 'TIX-3'].map(async (key) => (await get(`/tickets/${key}`)).body));
      const link = one.links.find((l: { ticket: string }) => l.ticket === 'TIX-3');
      const subtask = one.subtasks.find((s: { key: string }) => s.key === 'TIX-2');
      return {
        type: one.type,
        priority: one.priority,
        level: two.security_level,
        status: three.status.name,
        link: link.status.name,
        subtask: { type: subtask.type, status: subtask.status.name, project: subtask.project },
      };
    };
    const subtaskBefore = { type: 'Task', status: 'To Do', project: 'TIX' };
    expect(await names()).toEqual({
      type: 'Bug',
      priority: 'High',
      level: 'Staff only',
      status: 'Blocked',
      link: 'Blocked',
      subtask: subtaskBefore,
    });

    const renamed = PARKED.replace('priorities: [Urgent, High, Medium, Low]', 'priorities: [Urgent, HIGH, Medium, Low]')
      .replace('ticket_types: [Task, Bug, Spike,', 'ticket_types: [Task, BUG, Spike,')
      .replace('- { name: Staff only,', '- { name: STAFF ONLY,')
      .replace('- { name: Blocked, category: in_progress }', '- { name: BLOCKED, category: in_progress }')
      .replaceAll('To Do', 'TO DO');
    expect(['HIGH', 'BUG', 'STAFF ONLY', 'BLOCKED', 'TO DO'].every((name) => renamed.includes(name))).toBe(true);
    await apply(renamed);
    const subtaskRenamed = { type: 'Task', status: 'TO DO', project: 'TIX' };
    expect(await names()).toEqual({
      type: 'BUG',
      priority: 'HIGH',
      level: 'STAFF ONLY',
      status: 'BLOCKED',
      link: 'BLOCKED',
      subtask: subtaskRenamed,
    });

    await apply(PARKED);
    expect(await names()).toEqual({
      type: 'Bug',
      priority: 'High',
      level: 'Staff only',
      status: 'Blocked',
      link: 'Blocked',
      subtask: subtaskBefore,
    });
  });

  it("reads the names again when the request began before the change that added its ticket's status", async () => {
    const request = await requestAtThisVersion();
    const read = async (key: string) => (await findTicketDetail(service.db, key, ADMIN_SCOPE))!;
    expect(await nameTicketDetail(request, await read('TIX-3'))).toMatchObject({ key: 'TIX-3', status_name: 'Blocked' });

    await apply(withStatus(PARKED, 'Shelved', 'Shelve'));
    expect((await transition('TIX-3', 'Shelve')).status).toBe(200);

    const row = await nameTicketDetail(request, await read('TIX-3'));
    expect(row).toMatchObject({ key: 'TIX-3', project_key: 'TIX', status_name: 'Shelved', status_category: 'in_progress' });
    expect(row.workflow_id).toBe(
      (await sql<{ id: string }>`select workflow_id as id from ticket_types where id = ${row.type_id}`.execute(service.db)).rows[0]!.id,
    );
  });
});

// the file as the tests above leave it: every status a ticket is in stays listed
const SHELVED = withStatus(PARKED, 'Shelved', 'Shelve');

describe("a ticket's detail names its components, versions and custom fields in its project's order, as the workspace file has them at that request", () => {
  // fix versions come only from the file (PATCH sets components and fields): a ticket it adds has both of TIX's
  const VERSIONED = SHELVED.replace(
    '      - number: 5\n',
    "      - { number: 50, summary: Ships twice, type: Task, reporter: lee@example.com, fix_versions: ['2.0', '1.0'] }\n      - number: 5\n",
  );
  const setLists = () =>
    service.request('PATCH', '/api/v1/tickets/TIX-50', {
      token: lee,
      body: { components: ['Web', 'API'], fields: { platforms: ['linux'], story_points: '3' } },
    });
  const lists = async () => {
    const { components, fix_versions, affected_versions, fields } = (await get('/tickets/TIX-50')).body;
    return { components, fix_versions, affected_versions, fields, fieldOrder: Object.keys(fields) };
  };

  it('shows the lists a change set as that change answered them, and in the order the file gives at the next request', async () => {
    expect(VERSIONED).not.toBe(SHELVED);
    await apply(VERSIONED);
    const patched = await setLists();
    expect(patched.status).toBe(200);
    const shown = await lists();
    expect(shown).toEqual({
      components: ['API', 'Web'],
      fix_versions: ['1.0', '2.0'],
      affected_versions: [],
      fields: { story_points: '3', platforms: 'Linux' },
      fieldOrder: ['story_points', 'platforms'],
    });
    const { components, fix_versions, affected_versions, fields } = patched.body;
    expect({ components, fix_versions, affected_versions, fields, fieldOrder: Object.keys(fields) }).toEqual(shown);

    const reordered = VERSIONED.replace(
      'components: [API, { name: Web, default_assignee: dev2@example.com },',
      'components: [{ name: Web, default_assignee: dev2@example.com }, API,',
    )
      .replace("versions: ['1.0', '2.0']", "versions: ['2.0', '1.0']")
      .replace('      - { key: story_points, name: Story points, type: number }\n', '')
      .replace(
        '      - { key: reviewer, name: Reviewer, type: person }\n',
        '      - { key: reviewer, name: Reviewer, type: person }\n      - { key: story_points, name: Story points, type: number }\n',
      );
    expect(reordered.indexOf('story_points')).toBeGreaterThan(reordered.indexOf('key: platforms'));
    await apply(reordered);
    expect(await lists()).toMatchObject({
      components: ['Web', 'API'],
      fix_versions: ['2.0', '1.0'],
      fieldOrder: ['platforms', 'story_points'],
    });

    await apply(VERSIONED);
    expect(await lists()).toMatchObject({
      components: ['API', 'Web'],
      fix_versions: ['1.0', '2.0'],
      fieldOrder: ['story_points', 'platforms'],
    });
  });

  it("reads the project again when the request began before the change that added its ticket's component", async () => {
    await apply(SHELVED);
    const request = await requestAtThisVersion();
    const named = async () => nameTicketDetail(request, (await findTicketDetail(service.db, 'TIX-5', ADMIN_SCOPE))!);
    expect((await service.request('PATCH', '/api/v1/tickets/TIX-5', { token: lee, body: { components: ['Web', 'API'] } })).status).toBe(
      200,
    );
    expect((await named()).components).toEqual(['API', 'Web']);

    // a component no earlier version had (the first test's Billing stays in the project, unlisted)
    await apply(SHELVED.replace('components: [API, ', 'components: [API, Payments, '));
    const patched = await service.request('PATCH', '/api/v1/tickets/TIX-5', { token: lee, body: { components: ['Web', 'Payments'] } });
    expect(patched.body.components).toEqual(['Payments', 'Web']);
    expect((await named()).components).toEqual(['Payments', 'Web']);
  });
});

describe('people are named as the workspace file has them at that request: assignee, reporter, authors, subtasks and lists', () => {
  const RENAMED = (text: string) =>
    text
      .replace('- { name: Lee Lead, email: lee@example.com', '- { name: Lee Leader, email: lee@example.com')
      .replace('- { name: Dev One, email: dev1@example.com', '- { name: Dev Uno, email: dev1@example.com');

  it('shows renamed members everywhere a ticket names them at the next request', async () => {
    await apply(SHELVED);
    expect((await service.request('PATCH', '/api/v1/tickets/TIX-3', { token: lee, body: { assignee: 'Dev One' } })).status).toBe(200);
    expect((await service.request('POST', '/api/v1/tickets/TIX-1/worklogs', { token: lee, body: { time_spent: '1h' } })).status).toBe(201);
    const people = async () => {
      const one = (await get('/tickets/TIX-1')).body;
      const listed = (await get('/tickets?query=TIX-3')).body.tickets[0];
      return {
        assignee: one.assignee.name,
        reporter: one.reporter.name,
        commenter: one.comments.find((c: { body: unknown }) => JSON.stringify(c.body).includes('Reproduced')).author.name,
        worklogger: one.worklogs[0].author.name,
        subtaskAssignee: one.subtasks.find((s: { key: string }) => s.key === 'TIX-3').assignee.name,
        listedAssignee: listed.assignee.name,
      };
    };
    const before = {
      assignee: 'Dev One',
      reporter: 'Lee Lead',
      commenter: 'Dev One',
      worklogger: 'Lee Lead',
      subtaskAssignee: 'Dev One',
      listedAssignee: 'Dev One',
    };
    expect(await people()).toEqual(before);

    const renamed = RENAMED(SHELVED);
    expect(renamed.includes('Lee Leader') && renamed.includes('Dev Uno')).toBe(true);
    await apply(renamed);
    expect(await people()).toEqual({
      assignee: 'Dev Uno',
      reporter: 'Lee Leader',
      commenter: 'Dev Uno',
      worklogger: 'Lee Leader',
      subtaskAssignee: 'Dev Uno',
      listedAssignee: 'Dev Uno',
    });

    await apply(SHELVED);
    expect(await people()).toEqual(before);
  });

  it('reads the names again when the request began before the change that added the member a ticket names', async () => {
    await apply(SHELVED);
    const request = await requestAtThisVersion();
    const named = async () => nameTicketDetail(request, (await findTicketDetail(service.db, 'TIX-3', ADMIN_SCOPE))!);
    const cells = async () =>
      (await sql<{ cells: SummaryCells }>`select ${summaryCellsJson} as cells from tickets t where t.key = 'TIX-3'`.execute(service.db))
        .rows[0]!.cells;
    expect((await named()).assignee_name).not.toBe('Nia New');
    expect((await summariesOf(request, [await cells()]))[0]!.assignee?.name).not.toBe('Nia New');

    const withNia = SHELVED.replace(
      '  - { name: Dev Two, email: dev2@example.com, username: dev2 }\n',
      '  - { name: Dev Two, email: dev2@example.com, username: dev2 }\n  - { name: Nia New, email: nia@example.com, username: nia }\n',
    ).replace(
      '- { name: Developers, members: [dev1@example.com, dev2@example.com] }',
      '- { name: Developers, members: [dev1@example.com, dev2@example.com, nia@example.com] }',
    );
    expect(withNia.split('nia@example.com').length - 1).toBe(2);
    await apply(withNia);
    expect((await service.request('PATCH', '/api/v1/tickets/TIX-3', { token: lee, body: { assignee: 'Nia New' } })).status).toBe(200);

    expect((await named()).assignee_name).toBe('Nia New');
    expect((await summariesOf(request, [await cells()]))[0]!.assignee).toMatchObject({ name: 'Nia New' });
  });
});
