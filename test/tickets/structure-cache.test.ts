import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// Reads keep the workspace structure in memory keyed by config_version (docs/decisions.md, "Read
// paths and caching"): a change to the workspace file is seen by the very next request.

const FILE = fs.readFileSync(new URL('../fixtures/tickets-workspace.yaml', import.meta.url), 'utf8');

let service: TestService;
let lee: string;

beforeAll(async () => {
  service = await startTestService({ workspace: 'tickets-workspace.yaml' });
  lee = await service.token('lee@example.com');
});
afterAll(() => service.close());

const get = (path: string) => service.request('GET', `/api/v1${path}`, { token: lee });
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

    const granted = FILE.replace('members: [dev1@example.com], roles: [Lead]', 'members: [dev1@example.com, dev2@example.com], roles: [Lead]');
    expect(granted).not.toBe(FILE);
    await apply(granted);
    expect((await asDev2('/tickets/TIX-2')).status).toBe(200);
    expect((await asDev2('/tickets?project=TIX')).body.tickets.map((t: { key: string }) => t.key)).toContain('TIX-2');

    await apply(FILE);
    expect((await asDev2('/tickets/TIX-2')).status).toBe(403);
    expect((await asDev2('/tickets?query=TIX-2')).body.tickets).toEqual([]);
  });
});
