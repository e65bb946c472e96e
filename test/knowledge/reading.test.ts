import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { api, callTool, startKnowledge, type KnowledgeTokens } from './support.ts';

let service: TestService;
let t: KnowledgeTokens;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  ({ service, t } = await startKnowledge());
  call = api(service);
});
afterAll(() => service.close());

const keys = (reply: { body: { spaces: { key: string }[] } }) => reply.body.spaces.map((s) => s.key);

describe('4.5 spaces: a space the member may not read does not exist for it', () => {
  it('lists what each member may read, with can_edit and can_manage', async () => {
    const lee = await call(t.lee, 'GET', '/spaces');
    expect(keys(lee)).toEqual(['DOCS', 'ENG', 'HANDBOOK']);
    expect(lee.body.spaces.find((s: { key: string }) => s.key === 'ENG')).toEqual({
      key: 'ENG',
      name: 'Engineering',
      kind: 'global',
      project: 'CORE',
      source: 'native',
      home_page: 'welcome',
      can_edit: true,
      can_manage: true,
    });
    expect(keys(await call(t.dev1, 'GET', '/spaces'))).toEqual(['DEV1', 'DOCS', 'ENG', 'HANDBOOK']);
    expect(keys(await call(t.olga, 'GET', '/spaces'))).toEqual(['DOCS', 'HANDBOOK']);
    const vicEng = (await call(t.vic, 'GET', '/spaces')).body.spaces.find((s: { key: string }) => s.key === 'ENG');
    expect(vicEng).toMatchObject({ can_edit: false, can_manage: false });
  });

  it('keeps a read token to reading: can_edit and can_manage false', async () => {
    const eng = (await call(t.leeRead, 'GET', '/spaces')).body.spaces.find((s: { key: string }) => s.key === 'ENG');
    expect(eng).toMatchObject({ can_edit: false, can_manage: false });
  });

  it('answers 404 for a space the member may not read, exactly as for none', async () => {
    const hidden = await call(t.olga, 'GET', '/spaces/ENG/tree');
    const none = await call(t.olga, 'GET', '/spaces/NOPE/tree');
    expect(hidden.status).toBe(404);
    expect(none.status).toBe(404);
    expect(hidden.body.error.message).toBe('Space ENG not found');
  });
});

describe('2.7 page tree: tree order with depth; drafts, blog posts, deleted and hidden pages are not in it', () => {
  it('shows Lee the tree with the restricted page, and Vic without it', async () => {
    const lee = await call(t.lee, 'GET', '/spaces/ENG/tree');
    expect(lee.body.pages.map((p: { slug: string; depth: number; parent: string | null }) => [p.slug, p.depth, p.parent])).toEqual([
      ['welcome', 0, null],
      ['guides', 0, null],
      ['setup', 1, 'guides'],
      ['deploy', 1, 'guides'],
      ['salaries', 0, null],
      ['frozen', 0, null],
      ['legacy-import', 0, null],
    ]);
    const vic = await call(t.vic, 'GET', '/spaces/eng/tree');
    expect(vic.body.pages.map((p: { slug: string }) => p.slug)).not.toContain('salaries');
  });
});

describe('2.7 page: by slug or id, body as stored, its words, path, labels, backlinks and the tickets it mentions', () => {
  it('reads a page by slug and by id with everything 2.7 names', async () => {
    const page = await call(t.vic, 'GET', '/spaces/ENG/pages/deploy');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      space: 'ENG',
      slug: 'deploy',
      title: 'Deploying',
      kind: 'page',
      status: 'current',
      version: 1,
      body: { format: 'markdown', text: 'Deploys run from the pipeline; roll back with the button.' },
      text: 'Deploys run from the pipeline; roll back with the button.',
      published: false,
      author: { name: 'Dev One' },
      parent: 'guides',
      path: ['Guides'],
    });
    expect(page.body.backlinks.map((b: { slug: string }) => b.slug)).toEqual(['setup']);
    expect((await call(t.vic, 'GET', `/spaces/ENG/pages/${page.body.id}`)).body.slug).toBe('deploy');
  });

  it('names only the mentioned tickets the member may see', async () => {
    const welcome = await call(t.vic, 'GET', '/spaces/ENG/pages/welcome');
    expect(welcome.body.tickets).toEqual([{ key: 'CORE-1', summary: 'Make deploys boring' }]);
    expect(welcome.body.labels).toEqual(['start']);
    const asLee = await call(t.lee, 'GET', '/spaces/ENG/pages/welcome');
    expect(asLee.body.tickets.map((k: { key: string }) => k.key)).toEqual(['CORE-1', 'HIDE-1']);
  });

  it('gives the words of an imported page whatever its format, and keeps the body as stored', async () => {
    const page = await call(t.vic, 'GET', '/spaces/ENG/pages/legacy-import');
    expect(page.body.body).toEqual({ format: 'imported_storage', text: '<p>Imported <strong>storage</strong> text &amp; more</p>' });
    expect(page.body.text).toBe('Imported storage text & more');
  });

  it('answers 404 for a page behind a view restriction, and for a draft of someone else', async () => {
    expect((await call(t.vic, 'GET', '/spaces/ENG/pages/salaries')).status).toBe(404);
    expect((await call(t.lee, 'GET', '/spaces/ENG/pages/salaries')).status).toBe(200);
    expect((await call(t.vic, 'GET', '/spaces/ENG/pages/half-done')).status).toBe(404);
    expect((await call(t.dev1, 'GET', '/spaces/ENG/pages/half-done')).body.status).toBe('draft');
    expect((await call(t.lee, 'GET', '/spaces/ENG/pages/half-done')).status).toBe(200);
  });
});

describe('2.7 restrictions reach down: a page under a view restriction is hidden with it, and so are its links', () => {
  it('answers 404 to Vic for a page under Salary bands and leaves it out of the backlinks Vic reads; Lee sees both', async () => {
    const created = await call(t.lee, 'POST', '/spaces/ENG/pages', {
      title: 'Salary review',
      parent: 'salaries',
      body: 'Budget after [[Setting up]].',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await call(t.vic, 'GET', '/spaces/ENG/pages/salary-review')).status).toBe(404);
    expect((await call(t.vic, 'GET', `/spaces/ENG/pages/${created.body.id}`)).status).toBe(404);
    const forLee = await call(t.lee, 'GET', '/spaces/ENG/pages/salary-review');
    expect(forLee.body).toMatchObject({ parent: 'salaries', path: ['Salary bands'] });
    const backlinks = async (token: string) =>
      (await call(token, 'GET', '/spaces/ENG/pages/setup')).body.backlinks.map((b: { slug: string }) => b.slug);
    expect(await backlinks(t.vic)).toEqual(['welcome']);
    expect(await backlinks(t.lee)).toEqual(['salary-review', 'welcome']);
  });
});

describe('4.5 search: every word, best first, each with the passage where it was found', () => {
  it('finds by words and word beginnings in title and body, with a passage', async () => {
    const found = await call(t.vic, 'GET', '/search?query=roll%20butt');
    expect(found.body.pages.map((p: { slug: string }) => p.slug)).toEqual(['deploy']);
    expect(found.body.pages[0].passage).toContain('**roll**');
    const title = await call(t.vic, 'GET', '/search?query=deploy');
    expect(title.body.pages[0].slug).toBe('deploy');
  });

  it('leaves out what the member may not see, and names a space it cannot read as 422 with the list', async () => {
    expect((await call(t.vic, 'GET', '/search?query=confidential')).body.pages).toEqual([]);
    expect((await call(t.lee, 'GET', '/search?query=confidential')).body.pages.map((p: { slug: string }) => p.slug)).toEqual(['salaries']);
    expect((await call(t.olga, 'GET', '/search?query=deploys')).body.pages).toEqual([]);
    const space = await call(t.olga, 'GET', '/search?query=x&space=ENG');
    expect(space.status).toBe(422);
    expect(space.body.error.message).toBe('/space: no space "ENG" you can read; spaces are "DOCS", "HANDBOOK"');
    expect((await call(t.olga, 'GET', '/search?query=%20%21')).body.error.message).toBe('/query: has no words to search for');
  });

  it('answers the same through MCP', async () => {
    const tool = await callTool(service, t.vic, 'search_pages', { query: 'toolchain', space: 'ENG' });
    expect(tool.structuredContent).toEqual((await call(t.vic, 'GET', '/search?query=toolchain&space=ENG')).body);
  });
});
