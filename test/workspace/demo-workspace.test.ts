import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { snapshotWorkspace } from './snapshot.ts';

const DEMO = new URL('../../examples/demo-workspace.yaml', import.meta.url);

describe('workspace file: the demo workspace applies cleanly', () => {
  let svc: TestService;
  let admin: string;
  beforeAll(async () => {
    svc = await startTestService({ workspace: '../../examples/demo-workspace.yaml' });
    admin = await svc.token('admin@example.com');
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('has a software, a helpdesk, a business and a sales project', async () => {
    const projects = await svc.request('GET', '/api/v1/projects', { token: admin });
    expect(projects.status).toBe(200);
    expect(projects.body.projects.map((p: { key: string; kind: string }) => [p.key, p.kind])).toEqual([
      ['ATR', 'software'],
      ['HELP', 'helpdesk'],
      ['MKT', 'business'],
      ['SALES', 'sales'],
    ]);
  });

  it('the software project shows its vocabulary without archived components and versions', async () => {
    const atr = await svc.request('GET', '/api/v1/projects/ATR', { token: admin });
    expect(atr.status).toBe(200);
    expect(atr.body).toMatchObject({
      ticket_types: ['Story', 'Task', 'Bug', 'Epic', 'Sub-task'],
      priorities: ['Highest', 'High', 'Medium', 'Low', 'Lowest'],
      resolutions: ['Done', "Won't Do", 'Duplicate', 'Cannot Reproduce'],
      components: ['API', 'Web UI', 'Storage', 'Documentation'],
      versions: ['1.0', '1.1', '2.0'],
    });
    expect(atr.body.assignable_users.map((u: { name: string }) => u.name)).toEqual(
      expect.arrayContaining(['Alex Morgan', 'Priya Shah', 'Marco Rossi', 'Lena Fischer', 'Sam Okafor']),
    );
    expect(atr.body.assignable_users.map((u: { name: string }) => u.name)).not.toContain('Jordan Lee');
  });

  it('the viewer sees the software project but not the sales pipeline', async () => {
    const viewer = await svc.token('jordan@example.com', 'read');
    expect((await svc.request('GET', '/api/v1/projects/ATR', { token: viewer })).status).toBe(200);
    expect((await svc.request('GET', '/api/v1/projects/SALES', { token: viewer })).status).toBe(404);
  });

  it('the REST API is on and every demo member logs in with the demo password', async () => {
    const me = await svc.request('GET', '/api/v1/me', { token: await svc.token('hana@example.com') });
    expect(me.body.user.name).toBe('Hana Sato');
  });
});

describe('workspace file: applying the same file twice changes nothing', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ workspace: '../../examples/demo-workspace.yaml' });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('every row of every workspace table is the same, ids, password hashes and config_version included', async () => {
    const before = await snapshotWorkspace(svc.db);
    const report = await applyWorkspace(svc.db, parseWorkspaceYaml(fs.readFileSync(DEMO, 'utf8')));
    expect(report.changes).toEqual([]);
    expect(report.changed).toBe(false);
    expect(await snapshotWorkspace(svc.db)).toEqual(before);
  });
});
