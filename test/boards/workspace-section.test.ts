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

const boardAt = (file: File, index: number) => file.boards[index] as { columns: { statuses: string[] }[]; sprints?: unknown[]; projects: unknown };

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
    const file = fixture();
    boardAt(file, 1).columns[0]!.statuses = ['To Do', 'In Progress'];
    boardAt(file, 1).columns.push({ statuses: ['Review'] });
    const report = await applyWorkspace(service.db, file);
    expect(report.changed).toBe(true);
    const token = await service.token('ada@example.com');
    const view = await service.request('GET', '/api/v1/boards/2', { token });
    expect(view.body.columns.map((c: { name: string | null; statuses: string[] }) => [c.name, c.statuses])).toEqual([
      ['Open', ['To Do', 'In Progress']],
      ['Done', ['Done']],
      [null, ['Review']],
    ]);
  });
});

describe('workspace file `boards`: mistakes are named by their place in the file', () => {
  it('refuses a status no workflow has', async () => {
    expect(await refusal((f) => (boardAt(f, 0).columns[0]!.statuses = ['Limbo']))).toMatch(/^boards\[0\]\.columns\[0\]\.statuses\[0\]: no status "Limbo"/);
  });

  it('refuses a status shown by two columns', async () => {
    expect(await refusal((f) => (boardAt(f, 0).columns[1]!.statuses = ['To Do']))).toMatch(/^boards\[0\]\.columns\[1\]\.statuses\[0\]: /);
  });

  it('refuses a project that does not exist', async () => {
    expect(await refusal((f) => (boardAt(f, 0).projects = ['NOPE']))).toMatch(/^boards\[0\]\.projects\[0\]: no project "NOPE"/);
  });

  it('refuses two active sprints, and sprints on a kanban board', async () => {
    expect(
      await refusal((f) => (boardAt(f, 0).sprints = [{ name: 'A', state: 'active', end_date: '2026-01-01' }, { name: 'B', state: 'active', end_date: '2026-01-01' }])),
    ).toMatch(/^boards\[0\]\.sprints\[1\]\.state: /);
    expect(await refusal((f) => (boardAt(f, 1).sprints = [{ name: 'A' }]))).toMatch(/^boards\[1\]\.sprints: /);
  });

  it('refuses a board number declared twice', async () => {
    expect(await refusal((f) => f.boards.push({ ...f.boards[0]! }))).toMatch(/^boards\[3\]\.number: /);
  });
});
