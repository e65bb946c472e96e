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
      - slug: decisions
        title: Decision records
        parent: architecture
        restrictions: { edit: { members: [lee@example.com] } }
      - slug: incidents
        title: Incident reviews
        parent: architecture
        restrictions: { view: { members: [lee@example.com] } }
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
  const read = (slug: string) => call(t.lee, 'GET', `/spaces/OPS/pages/${slug}`);
  const hidden = await Promise.all(['db-outage', 'reorg'].map(read));
  const shown = hidden.map(({ status, body }) =>
    status === 200 ? { slug: body.slug, status: body.status, parent: body.parent, version: body.version } : status,
  );
  return { tree, hidden: shown };
}

const HIDDEN_WORDS = ['incidents', 'Incident', 'db-outage', 'Database outage', 'reorg', 'Unannounced'];

type Refusal = { code: string; message: string };

function expectRefusal(status: number, error: Refusal, page: string, doing: 'move' | 'delete'): void {
  expect(status).toBe(403);
  expect(error.code).toBe('forbidden');
  const taking = doing === 'move' ? 'moving it would move them' : 'deleting it would delete them';
  const why = `pages beneath it are ones you may not change, and ${taking} too`;
  expect(error.message).toBe(`You may not ${doing} page ${page}: ${why}`);
  for (const word of HIDDEN_WORDS) expect(error.message).not.toContain(word);
}

describe('4.5 a delete takes the pages beneath along: 403 when one is a page the member may not change or see', () => {
  it('refuses Dev One deleting Architecture, above pages Dev One may not change or see; nothing changes', async () => {
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

  it('lets the manager, who passes every restriction and sees drafts, delete Planning with the draft', async () => {
    expect((await call(t.lee, 'DELETE', '/spaces/OPS/pages/planning')).status).toBe(200);
    expect((await call(t.lee, 'GET', '/spaces/OPS/pages/reorg')).status).toBe(404);
  });
});

describe('4.5 a move takes the pages beneath along: 403 when one is a page the member may not change or see', () => {
  it('refuses Dev One moving Architecture into the Archive folder, through REST and MCP; nothing changes', async () => {
    const before = await everything();
    const refused = await call(t.dev1, 'POST', '/spaces/OPS/pages/architecture/move', { parent: 'archive' });
    expectRefusal(refused.status, refused.body.error, 'architecture', 'move');
    const args = { space: 'OPS', page: 'architecture', parent: 'archive' };
    const tool = await callTool(service, t.dev1, 'move_page', args);
    expect(tool.isError).toBe(true);
    expect(tool.content[0]!.text).toBe(refused.body.error.message);
    expect(await everything()).toEqual(before);
  });

  it('still moves a page whose pages beneath the member may all change, with them', async () => {
    await call(t.dev1, 'POST', '/spaces/OPS/pages', { title: 'Checklists' });
    await call(t.dev1, 'POST', '/spaces/OPS/pages', { title: 'Release checklist', parent: 'checklists' });
    const moved = await call(t.dev1, 'POST', '/spaces/OPS/pages/checklists/move', { parent: 'archive' });
    expect(moved.status).toBe(200);
    const under = await call(t.dev1, 'GET', '/spaces/OPS/pages/release-checklist');
    expect(under.body.path).toEqual(['Archive', 'Checklists']);
  });

  it('lets the manager move Architecture with everything beneath it', async () => {
    expect((await call(t.lee, 'POST', '/spaces/OPS/pages/architecture/move', { parent: 'archive' })).status).toBe(200);
    const hidden = await call(t.lee, 'GET', '/spaces/OPS/pages/db-outage');
    expect(hidden.body.path).toEqual(['Archive', 'Architecture', 'Incident reviews']);
  });
});
