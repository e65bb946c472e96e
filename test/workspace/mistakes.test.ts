import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { WorkspaceFileError } from '../../src/workspace/errors.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { snapshotWorkspace } from './snapshot.ts';

// A small valid workspace; each case below breaks one thing in a copy of it.
const BASE = `
workspace: { name: Mistakes, rest_api: true, default_priority: Medium, priorities: [High, Medium, Low] }
members:
  - { name: Ada Admin, email: ada@example.com, admin: true }
  - { name: Lee Lead, email: lee@example.com }
groups:
  - { name: Developers, members: [lee@example.com] }
roles:
  - { name: Lead, permissions: [project:view, project:admin] }
  - { name: Developer, permissions: [project:view, ticket:transition] }
workflows:
  - name: Simple
    statuses:
      - { name: To Do, category: todo }
      - { name: In Progress, category: in_progress }
      - { name: Done, category: done }
    transitions:
      - { name: Start, from: [To Do], to: In Progress }
      - { name: Finish, from: any, to: Done, screen: { resolution: true } }
projects:
  - key: CORE
    name: Core
    kind: software
    lead: lee@example.com
    workflow: Simple
    ticket_types: [Task, Bug]
    resolutions: [{ name: Done, default: true }, Won't Do]
    components: [API, { name: Web, default_assignee: lee@example.com }]
    security_levels: [{ name: Secret, members: [ada@example.com], groups: [Developers], roles: [Lead] }]
    custom_fields: [{ key: points, name: Points, type: number, ticket_types: [Task] }]
    roles: [{ role: Lead, members: [lee@example.com] }, { role: Developer, groups: [Developers] }]
  - { key: OPS, name: Operations, kind: business, workflow: Simple, ticket_types: [Task] }
  - key: SALES
    name: Sales
    kind: sales
    workflow:
      name: Pipeline
      statuses: [{ name: Lead, category: todo }, { name: Won, category: done }]
      transitions: [{ name: Win, from: [Lead], to: Won }]
    ticket_types: [Deal]
`;

type File = Record<string, any>;
const base = () => parseWorkspaceYaml(BASE) as File;

async function mistake(svc: TestService, change: (file: File) => void): Promise<string> {
  const file = base();
  change(file);
  const error = await applyWorkspace(svc.db, file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceFileError);
  return (error as WorkspaceFileError).message;
}

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ workspace: BASE });
});
afterAll(async () => {
  await svc?.close();
});

describe('workspace file: a file with a mistake applies nothing at all', () => {
  it('a bad status in projects[2] keeps the settings, members and projects before it unwritten', async () => {
    const before = await snapshotWorkspace(svc.db);
    const file = base();
    file.workspace.name = 'Renamed';
    file.workspace.mcp = true;
    file.members.push({ name: 'New Person', email: 'new@example.com', password: 'a-password' });
    file.members[1].timezone = 'Europe/Berlin';
    file.projects[0].name = 'Core renamed';
    file.projects[0].components.push('Storage');
    file.projects.push({ key: 'NEW', name: 'New', kind: 'business', workflow: 'Simple', ticket_types: ['Task'] });
    file.projects[2].workflow.statuses.push({ name: 'Lost', category: 'done' });
    file.projects[2].workflow.transitions[0].to = 'Dnoe';
    await expect(applyWorkspace(svc.db, file)).rejects.toThrow(
      'projects[2].workflow.transitions[0].to: no status "Dnoe"; statuses are "Lead", "Won", "Lost"',
    );
    expect(await snapshotWorkspace(svc.db)).toEqual(before);
  });
});

describe('workspace file: a YAML syntax error names the line and column', () => {
  it('a key given twice, an unclosed flow list', () => {
    expect(() => parseWorkspaceYaml('workspace:\n  name: Demo\nworkspace:\n  name: Twice\n', 'demo.yaml')).toThrow(
      'demo.yaml line 3, column 1: Map keys must be unique',
    );
    expect(() => parseWorkspaceYaml('members:\n  - { name: Ada\n', 'demo.yaml')).toThrow(/^demo\.yaml line \d+, column \d+: /);
  });
});

describe('workspace file: a shape mistake names its path', () => {
  it.each<[string, (f: File) => void, string]>([
    [
      'an unknown kind',
      (f) => (f.projects[1].kind = 'kanban'),
      'projects[1].kind: must be one of "software", "helpdesk", "business", "sales"',
    ],
    ['a field that does not exist', (f) => (f.projects[0].colour = 'red'), 'projects[0].colour: is not a field here'],
    ['a missing key', (f) => delete f.projects[1].key, 'projects[1].key: is required'],
    [
      'an unknown permission',
      (f) => f.roles[1].permissions.push('ticket:delete'),
      'roles[1].permissions[2]: must be one of "project:view", "project:admin", "ticket:create", "ticket:edit", "ticket:edit_own", "ticket:assign", "ticket:transition", "ticket:comment", "time:log", "time:view_all", "time:billing", "helpdesk:forms", "helpdesk:publish", "knowledge:read", "knowledge:edit", "knowledge:manage", "crm:view", "crm:edit", "crm:manage"',
    ],
    ['a component of the wrong type', (f) => (f.projects[0].components[0] = 5), 'projects[0].components[0]: must be string'],
    [
      'a misspelt component field',
      (f) => (f.projects[0].components[1] = { name: 'Web', archive: true }),
      'projects[0].components[1].archive: is not a field here',
    ],
    ['a bad project key', (f) => (f.projects[1].key = 'ops'), 'projects[1].key: must match pattern "^[A-Z][A-Z0-9]{1,9}$"'],
  ])('%s', async (_name, change, message) => {
    expect(await mistake(svc, change)).toBe(message);
  });
});

describe('workspace file: every reference is checked and a miss names its path', () => {
  it.each<[string, (f: File) => void, string]>([
    [
      'a transition to an unknown status',
      (f) => (f.workflows[0].transitions[1].to = 'Dnoe'),
      'workflows[0].transitions[1].to: no status "Dnoe"; statuses are "To Do", "In Progress", "Done"',
    ],
    [
      'a transition from an unknown status',
      (f) => (f.workflows[0].transitions[0].from = ['To Do', 'Backlog']),
      'workflows[0].transitions[0].from[1]: no status "Backlog"; statuses are "To Do", "In Progress", "Done"',
    ],
    [
      'a condition on an unknown role',
      (f) => (f.workflows[0].transitions[0].conditions = [{ role: 'Boss' }]),
      'workflows[0].transitions[0].conditions[0].role: no role "Boss"; roles are "Lead", "Developer"',
    ],
    [
      'a screen asking for an unknown field',
      (f) => (f.workflows[0].transitions[1].screen.fields = ['lost_reason']),
      'workflows[0].transitions[1].screen.fields[0]: no custom field "lost_reason" in project CORE; custom fields are "points"',
    ],
    [
      'a validator requiring an unknown field',
      (f) => (f.workflows[0].transitions[0].validators = [{ require_fields: ['pionts'] }]),
      'workflows[0].transitions[0].validators[0].require_fields[0]: no field "pionts" in project CORE; fields are "points", "summary", "description", "environment", "assignee", "priority", "resolution", "components", "fix_versions", "affected_versions", "labels", "due_date", "security_level", "parent", "original_estimate", "remaining_estimate"',
    ],
    [
      'an unknown group member',
      (f) => f.groups[0].members.push('nobody@example.com'),
      'groups[0].members[1]: no member "nobody@example.com"; members are "ada@example.com", "lee@example.com"',
    ],
    [
      'an unknown project lead',
      (f) => (f.projects[1].lead = 'Grace'),
      'projects[1].lead: no member "Grace"; members are "ada@example.com", "lee@example.com"',
    ],
    [
      'an unknown workflow',
      (f) => (f.projects[1].workflow = 'Simpel'),
      'projects[1].workflow: no workflow "Simpel"; workflows are "Simple", "Pipeline"',
    ],
    [
      'a ticket type with an unknown workflow',
      (f) => (f.projects[1].ticket_types = [{ name: 'Task', workflow: 'Kanban' }]),
      'projects[1].ticket_types[0].workflow: no workflow "Kanban"; workflows are "Simple", "Pipeline"',
    ],
    [
      'a custom field on an unknown ticket type',
      (f) => (f.projects[0].custom_fields[0].ticket_types = ['Story']),
      'projects[0].custom_fields[0].ticket_types[0]: no ticket type "Story"; ticket types are "Task", "Bug"',
    ],
    [
      'two default resolutions',
      (f) => (f.projects[0].resolutions[1] = { name: "Won't Do", default: true }),
      'projects[0].resolutions[1].default: only one resolution may be the default (also projects[0].resolutions[0])',
    ],
    [
      'a default priority a project lacks',
      (f) => (f.projects[1].priorities = ['High', 'Low']),
      `projects[1].priorities: the workspace's default priority "Medium" is not among the project's priorities "High", "Low"`,
    ],
    [
      'a default priority the workspace lacks',
      (f) => (f.workspace.default_priority = 'Urgent'),
      'workspace.default_priority: no priority "Urgent"; priorities are "High", "Medium", "Low"',
    ],
    [
      'an unknown component default assignee',
      (f) => (f.projects[0].components[1].default_assignee = 'grace@example.com'),
      'projects[0].components[1].default_assignee: no member "grace@example.com"; members are "ada@example.com", "lee@example.com"',
    ],
    [
      'a security level granted to an unknown member',
      (f) => f.projects[0].security_levels[0].members.push('Grace'),
      'projects[0].security_levels[0].members[1]: no member "Grace"; members are "ada@example.com", "lee@example.com"',
    ],
    [
      'a security level granted to an unknown group',
      (f) => (f.projects[0].security_levels[0].groups = ['Devs']),
      'projects[0].security_levels[0].groups[0]: no group "Devs"; groups are "Developers"',
    ],
    [
      'a security level granted to an unknown role',
      (f) => (f.projects[0].security_levels[0].roles = ['Lead', 'Owner']),
      'projects[0].security_levels[0].roles[1]: no role "Owner"; roles are "Lead", "Developer"',
    ],
    [
      'a project role that does not exist',
      (f) => (f.projects[0].roles[0].role = 'Leader'),
      'projects[0].roles[0].role: no role "Leader"; roles are "Lead", "Developer"',
    ],
    [
      'a project role held by an unknown member',
      (f) => (f.projects[0].roles[0].members = ['lee@example.org']),
      'projects[0].roles[0].members[0]: no member "lee@example.org"; members are "ada@example.com", "lee@example.com"',
    ],
    [
      'a project role held by an unknown group',
      (f) => (f.projects[0].roles[1].groups = ['Developer']),
      'projects[0].roles[1].groups[0]: no group "Developer"; groups are "Developers"',
    ],
    [
      'a component listed twice',
      (f) => f.projects[0].components.push('api'),
      'projects[0].components[2]: component "api" is listed twice (also at projects[0].components[0])',
    ],
    [
      'a project key listed twice',
      (f) => f.projects.push({ ...f.projects[1], name: 'Again' }),
      'projects[3]: project key "OPS" is listed twice (also at projects[1])',
    ],
    [
      'a workflow declared twice',
      (f) => (f.projects[2].workflow.name = 'simple'),
      'projects[2].workflow.name: workflow "simple" is declared twice (also at workflows[0])',
    ],
    [
      'a select field without choices',
      (f) => f.projects[0].custom_fields.push({ key: 'size', name: 'Size', type: 'select' }),
      'projects[0].custom_fields[1].choices: a select field needs choices',
    ],
    [
      'an email address listed twice',
      (f) => f.members.push({ name: 'Ada Again', email: 'ADA@example.com' }),
      'members[2]: email address "ADA@example.com" is listed twice (also at members[0])',
    ],
    [
      'an unknown time zone',
      (f) => (f.members[1].timezone = 'Europe/Berln'),
      'members[1].timezone: "Europe/Berln" is not an IANA time zone (e.g. Europe/Berlin)',
    ],
  ])('%s', async (_name, change, message) => {
    expect(await mistake(svc, change)).toBe(message);
  });

  it('the unchanged file is accepted (so each case above fails for its own mistake)', async () => {
    expect((await applyWorkspace(svc.db, base())).changed).toBe(false);
  });
});

describe('workspace file: a member may be named by email, username or display name', () => {
  it('a display name two members share is refused as ambiguous', async () => {
    const message = await mistake(svc, (f) => {
      f.members.push({ name: 'Lee Lead', email: 'lee2@example.com' });
      f.projects[1].lead = 'Lee Lead';
    });
    expect(message).toBe('projects[1].lead: "Lee Lead" names 2 members; name them by email address or username');
  });

  it('a username and a display name both resolve', async () => {
    const file = base();
    file.projects[1].lead = 'lee';
    file.projects[1].default_assignee = 'ada admin';
    const report = await applyWorkspace(svc.db, file);
    expect(report.changes).toEqual([{ table: 'projects', created: 0, updated: 1, deleted: 0 }]);
  });
});

describe('workspace file: the YAML of a case is still valid YAML', () => {
  it('round-trips', () => {
    expect(parseWorkspaceYaml(stringify(base()))).toEqual(base());
  });
});
