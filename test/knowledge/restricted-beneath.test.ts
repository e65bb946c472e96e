import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { api, callTool, knowledgeWorkspace, startKnowledge, type KnowledgeTokens } from './support.ts';

// OPS follows CORE's roles: Lee manages it, Dev One edits it. Under Architecture, Dev One may read
// but not change the decision records, and may not see the incident reviews (nor the page under
// them); under Planning sits a draft of Lee's, which only Lee and the managers see.
const OPS = `
  - key: OPS
    name: Operations
    project: CORE
    pages:
      - { slug: architecture, title: Architecture, body: "How the parts fit." }
      - { slug: decisions, title: Decision records, parent: architecture, restrictions: { edit: { members: [lee@example.com] } } }
      - { slug: incidents, title: Incident reviews, parent: architecture, restrictions: { view: { members: [lee@example.com] } } }
      - { slug: db-outage, title: Database outage, parent: incidents }
      - { slug: planning, title: Planning }
      - { slug: reorg, title: Unannounced reorg, parent: planning, draft: true, author: lee@example.com }
      - { slug: runbooks, title: Runbooks }
      - { slug: restarting, title: Restarting, parent: runbooks }
      - { slug: archive, title: Archive, kind: folder }
`;

let service: TestService;
let t: KnowledgeTokens;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  ({ service, t } = await startKnowledge(knowledgeWorkspace(OPS)));
  call = api(service);
});
afterAll(() => service.close());

/** Everything in OPS as its manager sees it: the tree, and where each page hangs. */
async function everything(): Promise<unknown> {
  const tree = (await call(t.lee, 'GET', '/spaces/OPS/tree')).body.pages;
  const hidden = await Promise.all(['db-outage', 'reorg'].map((slug) => call(t.lee, 'GET', `/spaces/OPS/pages/${slug}`)));
  return { tree, hidden: hidden.map(({ status, body }) => (status === 200 ? { slug: body.slug, status: body.status, parent: body.parent, version: body.version } : status)) };
}

const HIDDEN_WORDS = ['incidents', 'Incident', 'db-outage', 'Database outage', 'reorg', 'Unannounced'];

function expectRefusal(status: number, error: { code: string; message: string }, page: string, doing: 'move' | 'delete'): void {
  expect(status).toBe(403);
  expect(error.code).toBe('forbidden');
  expect(error.message).toBe(
    `You may not ${doing} page ${page}: pages beneath it are ones you may not change, and ${doing === 'move' ? 'moving it would move them' : 'deleting it would delete them'} too`,
  );
  for (const word of HIDDEN_WORDS) expect(error.message).not.toContain(word);
}

describe('4.5 a delete takes the pages beneath along: refused (403) when one of them is a page the member may not change or see', () => {
  it('refuses Dev One deleting Architecture, with a page beneath it Dev One may not change and one Dev One may not see; nothing changes', async () => {
    const before = await everything();
    expect((await call(t.dev1, 'PATCH', '/spaces/OPS/pages/decisions', { body: 'x' })).status).toBe(403);
    expect((await call(t.dev1, 'GET', '/spaces/OPS/pages/incidents')).status).toBe(404);

    const refused = await call(t.dev1, 'DELETE', '/spaces/OPS/pages/architecture');
    expectRefusal(refused.status, refused.body.error, 'architecture', 'delete');
    const tool = await callTool(service, t.dev1, 'archive_page', { space: 'OPS', page: 'architecture' });
    expect(tool.isError).toBe(true);
    expect(tool.content[0]!.text).toBe(refused.body.error.message);
    expect(await everything()).toEqual(before);
    expect((await call(t.dev1, 'GET', '/spaces/OPS/pages/architecture')).body.status).toBe('current');
  });

  it('refuses Dev One deleting Planning, under which sits a draft of another that Dev One cannot see', async () => {
    const before = await everything();
    const refused = await call(t.dev1, 'DELETE', '/spaces/OPS/pages/planning');
    expectRefusal(refused.status, refused.body.error, 'planning', 'delete');
    expect(await everything()).toEqual(before);
  });

  it('still deletes a page whose pages beneath the member may all change, with them', async () => {
    const deleted = await call(t.dev1, 'DELETE', '/spaces/OPS/pages/runbooks');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ slug: 'runbooks', archived: true });
    expect((await call(t.lee, 'GET', '/spaces/OPS/pages/restarting')).status).toBe(404);
  });

  it('lets the space’s manager, who passes every restriction and sees every draft, delete Planning with the draft beneath', async () => {
    expect((await call(t.lee, 'DELETE', '/spaces/OPS/pages/planning')).status).toBe(200);
    expect((await call(t.lee, 'GET', '/spaces/OPS/pages/reorg')).status).toBe(404);
  });
});

describe('4.5 a move takes the pages beneath along: refused (403) when one of them is a page the member may not change or see', () => {
  it('refuses Dev One moving Architecture into the Archive folder, through REST and MCP; nothing changes', async () => {
    const before = await everything();
    const refused = await call(t.dev1, 'POST', '/spaces/OPS/pages/architecture/move', { parent: 'archive' });
    expectRefusal(refused.status, refused.body.error, 'architecture', 'move');
    const tool = await callTool(service, t.dev1, 'move_page', { space: 'OPS', page: 'architecture', parent: 'archive' });
    expect(tool.isError).toBe(true);
    expect(tool.content[0]!.text).toBe(refused.body.error.message);
    expect(await everything()).toEqual(before);
  });

  it('still moves a page whose pages beneath the member may all change, with them', async () => {
    await call(t.dev1, 'POST', '/spaces/OPS/pages', { title: 'Checklists' });
    await call(t.dev1, 'POST', '/spaces/OPS/pages', { title: 'Release checklist', parent: 'checklists' });
    const moved = await call(t.dev1, 'POST', '/spaces/OPS/pages/checklists/move', { parent: 'archive' });
    expect(moved.status).toBe(200);
    expect((await call(t.dev1, 'GET', '/spaces/OPS/pages/release-checklist')).body.path).toEqual(['Archive', 'Checklists']);
  });

  it('lets the manager move Architecture with everything beneath it', async () => {
    expect((await call(t.lee, 'POST', '/spaces/OPS/pages/architecture/move', { parent: 'archive' })).status).toBe(200);
    expect((await call(t.lee, 'GET', '/spaces/OPS/pages/db-outage')).body.path).toEqual(['Archive', 'Architecture', 'Incident reviews']);
  });
});
