import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { WorkspaceFileError } from '../../src/workspace/errors.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { FIXTURES, startTestService, type TestService } from '../helpers/service.ts';

type File = { boards: Record<string, unknown>[] } & Record<string, unknown>;

let service: TestService;
const fixture = () => parseWorkspaceYaml(fs.readFileSync(new URL('boards-workspace.yaml', FIXTURES), 'utf8')) as File;

beforeAll(async () => {
  service = await startTestService({ workspace: 'boards-workspace.yaml' });
});
afterAll(() => service.close());

async function refusal(change: (file: File) => void): Promise<string> {
  const file = fixture();
  change(file);
  const error = await applyWorkspace(service.db, file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceFileError);
  return (error as WorkspaceFileError).message;
}

const boardAt = (file: File, index: number) =>
  file.boards[index] as { columns: { statuses: string[] }[]; sprints?: unknown[]; projects: unknown };

describe('workspace file `boards`: applied idempotently', () => {
  it('writes nothing when the same file is applied again, and keeps sprints the API changed', async () => {
    const token = await service.token('lee@example.com');
    const complete = await service.request('POST', '/api/v1/boards/1/sprints/Sprint%201/complete', { token, body: {} });
    expect(complete.status).toBe(200);
    const report = await applyWorkspace(service.db, fixture());
    expect(report.changed).toBe(false);
    const sprints = await service.request('GET', '/api/v1/boards/1/sprints', { token });
    expect(sprints.body.sprints.map((s: { name: string; state: string }) => [s.name, s.state])).toEqual([
      ['Sprint 1', 'closed'],
      ['Sprint 2', 'future'],
    ]);
  });

  it('changes columns in place by position', async () => {
    const token = await service.token('ada@example.com');
    // read once before the change: boards are kept in memory by config_version
    expect((await service.request('GET', '/api/v1/boards/2', { token })).body.columns).toHaveLength(2);
    const file = fixture();
    boardAt(file, 1).columns[0]!.statuses = ['To Do', 'In Progress'];
    boardAt(file, 1).columns.push({ statuses: ['Review'] });
    const report = await applyWorkspace(service.db, file);
    expect(report.changed).toBe(true);
    const view = await service.request('GET', '/api/v1/boards/2', { token });
    expect(view.body.columns.map((c: { name: string | null; statuses: string[] }) => [c.name, c.statuses])).toEqual([
      ['Open', ['To Do', 'In Progress']],
      ['Done', ['Done']],
      [null, ['Review']],
    ]);
  });
});

describe('workspace file `boards`: a change shows at the next request, though boards are kept in memory', () => {
  it('shows a new name, owner and set of projects, and moves cards by the new columns', async () => {
    const ada = await service.token('ada@example.com');
    const before = await service.request('GET', '/api/v1/boards/1?sprint=none', { token: ada });
    expect(before.body).toMatchObject({ name: 'Core scrum', owner: { name: 'Lee Lead' } });
    expect(before.body.columns.map((c: { name: string }) => c.name)).toEqual(['To Do', 'Doing', 'Review', 'Done']);

    const file = fixture();
    Object.assign(file.boards[0]!, { name: 'Core sprints', owner: 'ada@example.com', projects: ['OPS'] });
    boardAt(file, 0).columns.splice(0, 2, { name: 'Queue', statuses: ['To Do', 'In Progress'] } as never);
    expect((await applyWorkspace(service.db, file)).changed).toBe(true);

    const after = await service.request('GET', '/api/v1/boards/1?sprint=none', { token: ada });
    expect(after.body).toMatchObject({ name: 'Core sprints', owner: { name: 'Ada Admin' }, projects: ['OPS'] });
    expect(after.body.columns.map((c: { name: string }) => c.name)).toEqual(['Queue', 'Review', 'Done']);
    expect(
      after.body.columns
        .flatMap((c: { tickets: { key: string }[] }) => c.tickets.map((t) => t.key))
        .every((k: string) => k.startsWith('OPS-')),
    ).toBe(true);
    expect((await service.request('POST', '/api/v1/boards/1/moves', { token: ada, body: { key: 'CORE-1', column: 'Queue' } })).status).toBe(
      404,
    );
    const created = await service.request('POST', '/api/v1/tickets', {
      token: ada,
      body: { project: 'OPS', summary: 'On the changed board' },
    });
    const refused = await service.request('POST', '/api/v1/boards/1/moves', {
      token: ada,
      body: { key: created.body.key, column: 'Doing' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/Queue/);
    expect(
      (await service.request('POST', '/api/v1/boards/1/moves', { token: ada, body: { key: created.body.key, column: 'Queue' } })).status,
    ).toBe(200);

    expect((await applyWorkspace(service.db, fixture())).changed).toBe(true);
    const restored = await service.request('GET', '/api/v1/boards/1?sprint=none', { token: ada });
    expect(restored.body).toMatchObject({ name: 'Core scrum', owner: { name: 'Lee Lead' }, projects: ['CORE', 'OPS'] });
  });
});

describe('workspace file `boards`: mistakes are named by their place in the file', () => {
  it('refuses a status no workflow has', async () => {
    expect(await refusal((f) => (boardAt(f, 0).columns[0]!.statuses = ['Limbo']))).toMatch(
      /^boards\[0\]\.columns\[0\]\.statuses\[0\]: no status "Limbo"/,
    );
  });

  it('refuses a status shown by two columns', async () => {
    expect(await refusal((f) => (boardAt(f, 0).columns[1]!.statuses = ['To Do']))).toMatch(/^boards\[0\]\.columns\[1\]\.statuses\[0\]: /);
  });

  it('refuses a project that does not exist', async () => {
    expect(await refusal((f) => (boardAt(f, 0).projects = ['NOPE']))).toMatch(/^boards\[0\]\.projects\[0\]: no project "NOPE"/);
  });

  it('refuses two active sprints, and sprints on a kanban board', async () => {
    expect(
      await refusal(
        (f) =>
          (boardAt(f, 0).sprints = [
            { name: 'A', state: 'active', end_date: '2026-01-01' },
            { name: 'B', state: 'active', end_date: '2026-01-01' },
          ]),
      ),
    ).toMatch(/^boards\[0\]\.sprints\[1\]\.state: /);
    expect(await refusal((f) => (boardAt(f, 1).sprints = [{ name: 'A' }]))).toMatch(/^boards\[1\]\.sprints: /);
  });

  it('refuses a board number declared twice', async () => {
    expect(await refusal((f) => f.boards.push({ ...f.boards[0]! }))).toMatch(/^boards\[3\]\.number: /);
  });
});
