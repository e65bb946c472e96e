import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { api, callTool, knowledgeWorkspace, startKnowledge, type KnowledgeTokens } from './support.ts';

// In PLAN (CORE's roles: Lee manages, Dev One edits, Vic reads) Dev One's draft "Secret reorg"
// sits under Teams, and a draft of that draft under it; Dev One then places published pages
// beneath both, through the API.
const PLAN = `
  - key: PLAN
    name: Planning
    project: CORE
    pages:
      - { slug: teams, title: Teams }
      - slug: secret-reorg
        title: Secret reorg
        parent: teams
        draft: true
        author: dev1@example.com
        body: "Every team moves; see [[charter]]."
      - { slug: hiring, title: Hiring }
`;

const DRAFT_WORDS = ['secret-reorg', 'Secret reorg', 'reorg-annex', 'Reorg annex'];

let service: TestService;
let t: KnowledgeTokens;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  ({ service, t } = await startKnowledge(knowledgeWorkspace(PLAN)));
  call = api(service);
  const create = (page: Record<string, unknown>) => call(t.dev1, 'POST', '/spaces/PLAN/pages', page);
  const placed = [
    await create({ title: 'Charter', parent: 'secret-reorg', body: 'What each team owns.' }),
    await create({ title: 'Reorg annex', parent: 'secret-reorg', draft: true }),
    await create({ title: 'Budget', parent: 'reorg-annex', body: 'Headcount by team.' }),
    await call(t.dev1, 'POST', '/spaces/PLAN/pages/hiring/move', { parent: 'secret-reorg' }),
  ];
  for (const reply of placed) expect(reply.status, reply.text).toBeLessThan(300);
});
afterAll(() => service.close());

type TreePage = { slug: string; parent: string | null; depth: number };
const tree = async (token: string): Promise<TreePage[]> => (await call(token, 'GET', '/spaces/PLAN/tree')).body.pages;
const readPage = async (token: string, slug: string) => (await call(token, 'GET', `/spaces/PLAN/pages/${slug}`)).body;

function expectNoDraftIn(text: string): void {
  for (const word of DRAFT_WORDS) expect(text).not.toContain(word);
}

describe('2.7 a draft lends nothing to the pages under it: who may not read it sees neither title nor slug', () => {
  it('shows Vic the pages under the draft with the nearest page Vic may read as parent and path (REST)', async () => {
    for (const slug of ['charter', 'hiring', 'budget']) {
      const page = await call(t.vic, 'GET', `/spaces/PLAN/pages/${slug}`);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ slug, status: 'current', parent: 'teams', path: ['Teams'] });
      expectNoDraftIn(page.text);
    }
  });

  it('answers the same through MCP', async () => {
    for (const slug of ['charter', 'hiring', 'budget']) {
      const page = await callTool(service, t.vic, 'get_page', { space: 'PLAN', page: slug });
      expect(page.structuredContent).toMatchObject({ slug, parent: 'teams', path: ['Teams'] });
      expectNoDraftIn(JSON.stringify(page));
    }
    const tools = await callTool(service, t.vic, 'get_page_tree', { space: 'PLAN' });
    expectNoDraftIn(JSON.stringify(tools));
  });

  it('shows the draft to its author and to the space’s manager, who may read it', async () => {
    for (const token of [t.dev1, t.lee]) {
      const charter = await readPage(token, 'charter');
      expect(charter).toMatchObject({ parent: 'secret-reorg', path: ['Teams', 'Secret reorg'] });
      const budget = await readPage(token, 'budget');
      expect(budget).toMatchObject({ parent: 'reorg-annex', path: ['Teams', 'Secret reorg', 'Reorg annex'] });
    }
  });

  it('leaves the draft out of search results and backlinks for Vic', async () => {
    const found = await call(t.vic, 'GET', '/search?query=team&space=PLAN');
    expect(found.body.pages.map((p: { slug: string }) => p.slug).sort()).toEqual(['budget', 'charter', 'teams']);
    expectNoDraftIn(found.text);
    const forAuthor = await call(t.dev1, 'GET', '/search?query=team&space=PLAN');
    expect(forAuthor.body.pages.map((p: { slug: string }) => p.slug)).toContain('secret-reorg');
    const charter = await call(t.vic, 'GET', '/spaces/PLAN/pages/charter');
    expect(charter.body.backlinks).toEqual([]);
    const authorsBacklinks = (await readPage(t.dev1, 'charter')).backlinks;
    expect(authorsBacklinks.map((b: { slug: string }) => b.slug)).toEqual(['secret-reorg']);
  });
});

describe('3.5 drafts are not in the tree, and no published page leaves a reader’s tree for being under one', () => {
  it('puts the published pages under the drafts in the drafts’ place, under Teams, for every reader', async () => {
    for (const token of [t.vic, t.dev1, t.lee]) {
      const pages = await tree(token);
      const shown = pages.map((p) => `${'  '.repeat(p.depth)}${p.slug} < ${p.parent}`);
      expect(shown).toEqual(['teams < null', '  charter < teams', '  budget < teams', '  hiring < teams']);
      expectNoDraftIn(JSON.stringify(pages));
    }
  });

  it('puts them back under the draft once it is published', async () => {
    expect((await call(t.dev1, 'PATCH', '/spaces/PLAN/pages/secret-reorg', { draft: false })).status).toBe(200);
    const pages = await tree(t.vic);
    const shown = pages.map((p) => `${'  '.repeat(p.depth)}${p.slug}`);
    expect(shown).toEqual(['teams', '  secret-reorg', '    charter', '    budget', '    hiring']);
    expect(await readPage(t.vic, 'charter')).toMatchObject({ parent: 'secret-reorg', path: ['Teams', 'Secret reorg'] });
    expect(await readPage(t.vic, 'budget')).toMatchObject({ parent: 'secret-reorg', path: ['Teams', 'Secret reorg'] });
  });
});
