import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { snapshotWorkspace } from './snapshot.ts';

const FILE = `
workspace: { rest_api: true }
members: [{ name: Ada Admin, email: ada@example.com, admin: true }]
workflows:
  - name: Flow
    statuses: [{ name: To Do, category: todo }, { name: Doing, category: in_progress }, { name: Blocked, category: in_progress }, { name: Done, category: done }]
    transitions:
      - { name: Start, from: [To Do], to: Doing }
      - { name: Block, from: [Doing], to: Blocked }
      - { name: Finish, from: any, to: Done }
projects:
  - key: CORE
    name: Core
    kind: software
    workflow: Flow
    ticket_types: [Task, Bug, Chore]
    priorities: [High, Low]
    tickets:
      - { number: 1, summary: Started work, type: Task, status: Doing }
`;

type File = Record<string, any>;
const base = () => parseWorkspaceYaml(FILE) as File;
const withoutStatus = (file: File, status: string) => {
  const flow = file.workflows[0];
  flow.statuses = flow.statuses.filter((s: { name: string }) => s.name !== status);
  flow.transitions = flow.transitions.filter(
    (t: { to: string; from: unknown }) => t.to !== status && !(Array.isArray(t.from) && t.from.includes(status)),
  );
  return file;
};

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ workspace: FILE });
});
afterAll(async () => {
  await svc?.close();
});

describe('workspace file: a status or ticket type left out is deleted unless data still uses it', () => {
  it('a status no ticket is in is deleted, with the transitions into it', async () => {
    await applyWorkspace(svc.db, withoutStatus(base(), 'Blocked'));
    const statuses = await svc.db.selectFrom('statuses').select('name').orderBy('position').execute();
    expect(statuses.map((s) => s.name)).toEqual(['To Do', 'Doing', 'Done']);
  });

  it('a status a ticket is in stops the apply, naming it, and nothing is written', async () => {
    const before = await snapshotWorkspace(svc.db);
    const file = withoutStatus(withoutStatus(base(), 'Blocked'), 'Doing');
    file.projects[0].name = 'Renamed';
    await expect(applyWorkspace(svc.db, file)).rejects.toThrow(
      'workflows[0].statuses: status "Doing" is no longer listed but is still used (1 in tickets); keep it in the file',
    );
    expect(await snapshotWorkspace(svc.db)).toEqual(before);
  });

  it('a ticket type no ticket has is deleted; one a ticket has stops the apply', async () => {
    const file = withoutStatus(base(), 'Blocked');
    file.projects[0].ticket_types = ['Task', 'Bug'];
    await applyWorkspace(svc.db, file);
    const admin = await svc.token('ada@example.com');
    expect((await svc.request('GET', '/api/v1/projects/CORE', { token: admin })).body.ticket_types).toEqual(['Task', 'Bug']);
    file.projects[0].ticket_types = ['Bug'];
    await expect(applyWorkspace(svc.db, file)).rejects.toThrow(
      'projects[0].ticket_types: ticket type "Task" is no longer listed but is still used (1 in tickets); keep it in the file',
    );
  });
});
