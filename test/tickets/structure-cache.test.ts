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
