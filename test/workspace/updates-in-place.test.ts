import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/auth/passwords.ts';
import { applyWorkspace, type ApplyReport } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const BEFORE = `
workspace: { name: Before, rest_api: true, default_priority: Medium, priorities: [High, Medium, Low] }
members:
  - { name: Ada Admin, email: ada@example.com, admin: true }
  - { name: Lee Lead, email: lee@example.com, password: lee-password, timezone: Europe/London }
  - { name: Dev One, email: dev1@example.com }
  - { name: Wes Watcher, email: wes@example.com }
groups:
  - { name: Developers, members: [dev1@example.com] }
  - { name: Watchers, members: [wes@example.com] }
roles:
  - { name: Lead, permissions: [project:view, project:admin, ticket:transition] }
  - { name: Developer, permissions: [project:view, ticket:transition] }
  - { name: Viewer, permissions: [project:view] }
workflows:
  - name: Simple
    statuses: [{ name: To Do, category: todo }, { name: Doing, category: in_progress }, { name: Done, category: done }]
    transitions:
      - { name: Start, from: [To Do], to: Doing }
      - { name: Finish, from: any, to: Done, screen: { resolution: true } }
      - { name: Reopen, from: [Done], to: To Do }
projects:
  - key: CORE
    name: Core platform
    kind: software
    lead: lee@example.com
    workflow: Simple
    ticket_types: [Task, Bug]
    resolutions: [{ name: Done, default: true }]
    components: [API, Web]
    versions: ['1.0', '1.1']
    labels: [Backend, front end]
    roles:
      - { role: Lead, members: [lee@example.com] }
      - { role: Developer, groups: [Developers] }
      - { role: Viewer, groups: [Watchers] }
`;

function changed(): Record<string, any> {
  const file = parseWorkspaceYaml(BEFORE) as Record<string, any>;
  file.workspace.name = 'After';
  file.members[1].timezone = 'America/Chicago';
  file.members[2].password = 'a-new-password';
  file.groups[0].members.push('wes@example.com');
  file.groups[1].members = [];
  file.workflows[0].transitions = file.workflows[0].transitions.filter((t: { name: string }) => t.name !== 'Reopen');
  const core = file.projects[0];
  core.name = 'Core services';
  core.components = ['API', 'Storage'];
  core.versions = ['1.0', '1.1', '2.0'];
  core.labels = ['backend', { name: 'Front End', archived: true }];
  return file;
}

let svc: TestService;
let admin: string;
let leeToken: string;
const ids: Record<string, string> = {};

async function rowIds() {
  const [project, lee, workflow, statuses, components, apiComponent] = await Promise.all([
    svc.db.selectFrom('projects').select('id').where('key', '=', 'CORE').executeTakeFirstOrThrow(),
    svc.db.selectFrom('members').select(['id', 'password_hash']).where('email', '=', 'lee@example.com').executeTakeFirstOrThrow(),
    svc.db.selectFrom('workflows').select('id').where('name', '=', 'Simple').executeTakeFirstOrThrow(),
    svc.db.selectFrom('statuses').select(['id', 'name']).orderBy('position').execute(),
    svc.db.selectFrom('components').select('id').execute(),
    svc.db.selectFrom('components').select('id').where('name', '=', 'API').executeTakeFirstOrThrow(),
  ]);
  return {
    project: project.id,
    lee: lee.id,
    leeHash: lee.password_hash ?? '',
    workflow: workflow.id,
    statuses: statuses.map((s) => s.id).join(','),
    api: apiComponent.id,
    componentCount: String(components.length),
  };
}

beforeAll(async () => {
  svc = await startTestService({ workspace: BEFORE });
  admin = await svc.token('ada@example.com');
  leeToken = await svc.token('lee@example.com');
  Object.assign(ids, await rowIds());
});
afterAll(async () => {
  await svc?.close();
});

describe('workspace file: a changed file updates in place, keeping ids and keys', () => {
  let report: ApplyReport;
  let versionBefore: number;
  beforeAll(async () => {
    versionBefore = Number(
      (await svc.db.selectFrom('workspace_settings').select('config_version').executeTakeFirstOrThrow()).config_version,
    );
    report = await applyWorkspace(svc.db, changed());
  });

  it('reports the change and bumps config_version once', async () => {
    expect(report.changed).toBe(true);
    expect(report.configVersion).toBe(versionBefore + 1);
  });

  it('the renamed project keeps its key and id, and shows the new component but not the removed one', async () => {
    const core = await svc.request('GET', '/api/v1/projects/CORE', { token: admin });
    expect(core.status).toBe(200);
    expect(core.body).toMatchObject({
      key: 'CORE',
      name: 'Core services',
      components: ['API', 'Storage'],
      versions: ['1.0', '1.1', '2.0'],
      labels: ['backend'],
    });
    const after = await rowIds();
    expect(after.project).toBe(ids.project);
    expect(after.api).toBe(ids.api);
  });

  it('a label marked archived is no longer offered but kept', async () => {
    const label = await svc.db.selectFrom('labels').select(['archived']).where('name', '=', 'front-end').executeTakeFirstOrThrow();
    expect(label.archived).toBe(true);
  });

  it('a component left out is archived, not deleted', async () => {
    const web = await svc.db.selectFrom('components').select(['archived']).where('name', '=', 'Web').executeTakeFirstOrThrow();
    expect(web.archived).toBe(true);
  });

  it('a member whose timezone changed keeps their id, password hash and tokens', async () => {
    const me = await svc.request('GET', '/api/v1/me', { token: leeToken });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(ids.lee);
    const after = await rowIds();
    expect(after.leeHash).toBe(ids.leeHash);
    const lee = await svc.db.selectFrom('members').select('timezone').where('id', '=', ids.lee!).executeTakeFirstOrThrow();
    expect(lee.timezone).toBe('America/Chicago');
  });

  it('a new password is hashed anew and verifies', async () => {
    const dev = await svc.db
      .selectFrom('members')
      .select('password_hash')
      .where('email', '=', 'dev1@example.com')
      .executeTakeFirstOrThrow();
    expect(await verifyPassword('a-new-password', dev.password_hash)).toBe(true);
  });

  it('a member moved from Watchers to Developers may now move tickets', async () => {
    const core = await svc.request('GET', '/api/v1/projects/CORE', { token: admin });
    expect(core.body.assignable_users.map((u: { name: string }) => u.name).sort()).toEqual([
      'Ada Admin',
      'Dev One',
      'Lee Lead',
      'Wes Watcher',
    ]);
  });

  it('the workflow keeps its statuses; the transition left out is gone', async () => {
    const after = await rowIds();
    expect(after.workflow).toBe(ids.workflow);
    expect(after.statuses).toBe(ids.statuses);
    const transitions = await svc.db.selectFrom('transitions').select('name').orderBy('position').execute();
    expect(transitions.map((t) => t.name)).toEqual(['Start', 'Finish']);
  });

  it('applying the changed file again changes nothing', async () => {
    const again = await applyWorkspace(svc.db, changed());
    expect(again.changes).toEqual([]);
    expect(again.configVersion).toBe(versionBefore + 1);
  });
});

describe('workspace file: going back to the first file restores what it states', () => {
  it('the archived component comes back with its old id; the new one is archived', async () => {
    const webBefore = await svc.db.selectFrom('components').select('id').where('name', '=', 'Web').executeTakeFirstOrThrow();
    await applyWorkspace(svc.db, parseWorkspaceYaml(BEFORE));
    const core = await svc.request('GET', '/api/v1/projects/CORE', { token: admin });
    expect(core.body).toMatchObject({ name: 'Core platform', components: ['API', 'Web'] });
    const webAfter = await svc.db.selectFrom('components').select('id').where('name', '=', 'Web').executeTakeFirstOrThrow();
    expect(webAfter.id).toBe(webBefore.id);
  });
});
