import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWorkspace } from '../../src/workspace/apply.ts';
import { parseWorkspaceYaml } from '../../src/workspace/parse.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// Search leaves out its branch for restricted comments while the workspace holds none; whether it
// holds any is kept with the structure, by config_version (tickets/search.ts).

const FILE = fs.readFileSync(new URL('../fixtures/tickets-workspace.yaml', import.meta.url), 'utf8');
const RESTRICTED = [
  '          - { author: lee@example.com, body: Leads only note about the zeppelin contract, visibility: { role: Lead } }\n',
  '          - { author: dev1@example.com, body: Insiders only remark about the walrus migration, visibility: { group: Insiders } }\n',
];
const WITHOUT = RESTRICTED.reduce((text, line) => text.replace(line, ''), FILE);
const SEED_WITH_THEM = `      - number: 9
        summary: Carries the restricted notes
        reporter: lee@example.com
        comments:
${RESTRICTED.join('')}`;
const WITH_A_NEW_TICKET = WITHOUT.replace('  - key: OTHER\n', `${SEED_WITH_THEM}  - key: OTHER\n`);

let service: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  service = await startTestService({ workspace: WITHOUT });
  for (const who of ['lee', 'dev1', 'dev2']) tokens[who] = await service.token(`${who}@example.com`);
});
afterAll(() => service.close());

const keys = async (who: string, query: string) =>
  (await service.request('GET', `/api/v1/tickets?query=${query}`, { token: tokens[who] })).body.tickets.map((t: { key: string }) => t.key);

describe('search: restricted comments the member may read, from the first request after the workspace file adds them', () => {
  it('finds them at once where the member may read them, and nowhere else', async () => {
    expect(WITHOUT).not.toBe(FILE);
    expect(WITH_A_NEW_TICKET).toContain('number: 9');
    expect(await keys('lee', 'zeppelin')).toEqual([]);
    expect(await keys('dev1', 'walrus')).toEqual([]);

    await applyWorkspace(service.db, parseWorkspaceYaml(WITH_A_NEW_TICKET, 'tickets-workspace.yaml'));

    expect(await keys('lee', 'zeppelin')).toEqual(['TIX-9']);
    expect(await keys('dev1', 'walrus')).toEqual(['TIX-9']);
    expect(await keys('dev2', 'zeppelin')).toEqual([]);
    expect(await keys('dev2', 'walrus')).toEqual([]);
    expect(await keys('dev2', 'restricted')).toEqual(['TIX-9']);
  });
});
