import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

// The stored shapes the tickets module reads (transitions, labels, grants, ticket type workflows).
const FILE = `
workspace: { rest_api: true }
members:
  - { name: Ada Admin, email: ada@example.com, admin: true }
  - { name: Lee Lead, email: lee@example.com }
  - { name: No Email, email: null }
groups: [{ name: Developers, members: [lee@example.com] }]
roles: [{ name: Lead, permissions: [project:view, project:admin] }]
workflows:
  - name: Review
    statuses: [{ name: Open, category: todo }, { name: In Review, category: in_progress }, { name: Closed, category: done }]
    transitions:
      - name: Review
        from: [Open]
        to: In Review
        conditions: [{ permission: ticket:transition }, { role: Lead }, { assignee_only: true }]
        validators: [{ require_fields: [assignee, points], message: Estimate it first }]
        screen: { assignee: true, fields: [points] }
      - { name: Close, from: any, to: Closed, screen: { resolution: true } }
projects:
  - key: CORE
    name: Core
    kind: software
    workflow: { name: Plain, statuses: [{ name: To Do, category: todo }, { name: Done, category: done }], transitions: [] }
    ticket_types: [Task, { name: Change, workflow: Review }]
    labels: [Customer Request, ' Tech  Debt ']
    security_levels: [{ name: Secret, members: [lee@example.com], groups: [Developers], roles: [Lead] }]
    custom_fields:
      - { key: points, name: Points, type: number }
      - { key: areas, name: Areas, type: multi_select, choices: [Front, Back] }
`;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ workspace: FILE });
});
afterAll(async () => {
  await svc?.close();
});

describe('workspace file: transitions are stored as the tickets module reads them', () => {
  it('conditions name a permission, a role by id, or the assignee; validators and screen as written; from any is null', async () => {
    const role = await svc.db.selectFrom('roles').select('id').where('name', '=', 'Lead').executeTakeFirstOrThrow();
    const statuses = await svc.db.selectFrom('statuses').select(['id', 'name']).execute();
    const statusId = (name: string) => statuses.find((s) => s.name === name)!.id;
    const rows = await svc.db.selectFrom('transitions').selectAll().orderBy('position').execute();
    const review = rows.find((t) => t.name === 'Review')!;
    expect(review.conditions).toEqual([{ permission: 'ticket:transition' }, { role_id: role.id }, { assignee_only: true }]);
    expect(review.validators).toEqual([{ require_fields: ['assignee', 'points'], message: 'Estimate it first' }]);
    expect(review.screen).toEqual({ assignee: true, fields: ['points'] });
    expect(review.from_status_ids).toEqual([statusId('Open')]);
    expect(review.to_status_id).toBe(statusId('In Review'));
    const close = rows.find((t) => t.name === 'Close')!;
    expect(close.from_status_ids).toBeNull();
    expect(close.screen).toEqual({ resolution: true });
  });
});

describe("workspace file: a ticket type uses its own workflow or the project's", () => {
  it('Task follows Plain, Change follows Review', async () => {
    const rows = await svc.db
      .selectFrom('ticket_types')
      .innerJoin('workflows', 'workflows.id', 'ticket_types.workflow_id')
      .select(['ticket_types.name as type', 'workflows.name as workflow'])
      .orderBy('ticket_types.position')
      .execute();
    expect(rows).toEqual([
      { type: 'Task', workflow: 'Plain' },
      { type: 'Change', workflow: 'Review' },
    ]);
  });
});

describe('workspace file: labels are stored normalized', () => {
  it('lowercased, spaces as hyphens', async () => {
    const admin = await svc.token('ada@example.com');
    const core = await svc.request('GET', '/api/v1/projects/CORE', { token: admin });
    expect(core.body.labels).toEqual(['customer-request', 'tech-debt']);
  });
});

describe('workspace file: a security level grant is one row per member, group or role', () => {
  it('three rows for one member, one group and one role', async () => {
    const grants = await svc.db.selectFrom('security_level_grants').select(['member_id', 'group_id', 'role_id']).execute();
    expect(grants).toHaveLength(3);
    expect(grants.every((g) => [g.member_id, g.group_id, g.role_id].filter(Boolean).length === 1)).toBe(true);
  });
});

describe('workspace file: custom fields keep their type and choices', () => {
  it('multi_select with its choices', async () => {
    const fields = await svc.db
      .selectFrom('custom_fields')
      .select(['key', 'type', 'choices', 'ticket_types'])
      .orderBy('position')
      .execute();
    expect(fields).toEqual([
      { key: 'points', type: 'number', choices: [], ticket_types: [] },
      { key: 'areas', type: 'multi_select', choices: ['Front', 'Back'], ticket_types: [] },
    ]);
  });
});

describe('workspace file: a username defaults from the email, else the name', () => {
  it('lee@example.com is lee; No Email is no.email', async () => {
    const members = await svc.db.selectFrom('members').select(['display_name', 'username']).orderBy('username').execute();
    expect(members).toEqual([
      { display_name: 'Ada Admin', username: 'ada' },
      { display_name: 'Lee Lead', username: 'lee' },
      { display_name: 'No Email', username: 'no.email' },
    ]);
  });
});

describe('workspace file: a project that states no priorities gets the defaults', () => {
  it('Highest to Lowest', async () => {
    const admin = await svc.token('ada@example.com');
    const core = await svc.request('GET', '/api/v1/projects/CORE', { token: admin });
    expect(core.body.priorities).toEqual(['Highest', 'High', 'Medium', 'Low', 'Lowest']);
  });
});
