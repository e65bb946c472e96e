import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { WorkspaceFileError } from '../../src/workspace/errors.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { FIXTURES, type TestService } from '../helpers/service.ts';
import { api, startKnowledge, type KnowledgeTokens } from './support.ts';

type File = { spaces: (Record<string, unknown> & { pages: Record<string, unknown>[] })[] } & Record<string, unknown>;

let service: TestService;
let t: KnowledgeTokens;
const fixture = () => parseWorkspaceYaml(fs.readFileSync(new URL('knowledge-workspace.yaml', FIXTURES), 'utf8')) as File;

beforeAll(async () => {
  ({ service, t } = await startKnowledge());
});
afterAll(() => service.close());

async function refusal(change: (file: File) => void): Promise<string> {
  const file = fixture();
  change(file);
  const before = await api(service)(t.ada, 'GET', '/spaces');
  const error = await applyWorkspace(service.db, file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceFileError);
  expect((await api(service)(t.ada, 'GET', '/spaces')).body).toEqual(before.body);
  return (error as WorkspaceFileError).message;
}

describe('workspace file `spaces`: spaces upserted by key, grants following the file, seed pages created once', () => {
  it('writes nothing when the same file is applied again', async () => {
    expect((await applyWorkspace(service.db, fixture())).changed).toBe(false);
  });

  it('leaves a seed page changed through the API alone, and follows changed grants', async () => {
    await api(service)(t.lee, 'PATCH', '/spaces/HANDBOOK/pages/holidays', { body: 'Thirty days.' });
    const file = fixture();
    file.spaces[1]!.read = { members: ['lee@example.com'] };
    expect((await applyWorkspace(service.db, file)).changed).toBe(true);
    expect((await api(service)(t.lee, 'GET', '/spaces/HANDBOOK/pages/holidays')).body.body.text).toBe('Thirty days.');
    expect((await api(service)(t.olga, 'GET', '/spaces/HANDBOOK/tree')).status).toBe(404);
    await applyWorkspace(service.db, fixture());
    expect((await api(service)(t.olga, 'GET', '/spaces/HANDBOOK/tree')).status).toBe(200);
  });
});

describe('workspace file `spaces`: a mistake names its place and changes nothing', () => {
  it.each([
    [
      'a space twice',
      (f: File) => f.spaces.push({ ...f.spaces[1]!, key: 'handbook' }),
      'spaces[4].key: space "handbook" is declared twice (also spaces[1])',
    ],
    ['an unknown project', (f: File) => (f.spaces[0]!.project = 'NOPE'), 'spaces[0].project: no project "NOPE"'],
    ['a personal space without owner', (f: File) => delete f.spaces[3]!.owner, 'spaces[3].owner: a personal space needs its owner'],
    ['an unknown group', (f: File) => (f.spaces[1]!.edit = { groups: ['Nobody'] }), 'spaces[1].edit.groups[0]: no group "Nobody"'],
    [
      'a parent listed later',
      (f: File) => (f.spaces[0]!.pages[1]!.parent = 'setup'),
      'spaces[0].pages[1].parent: no page "setup" listed before it',
    ],
    ['a folder with a body', (f: File) => (f.spaces[0]!.pages[1]!.body = 'x'), 'spaces[0].pages[1].body: a folder has no body'],
  ])('%s', async (_name, change, message) => {
    expect(await refusal(change)).toBe(message);
  });
});
