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

const tree = async (token: string, space = 'ENG') =>
  (await call(token, 'GET', `/spaces/${space}/tree`)).body.pages.map(
    (p: { slug: string; depth: number }) => `${'  '.repeat(p.depth)}${p.slug}`,
  );
const versions = (pageId: string) =>
  service.db
    .selectFrom('page_versions')
    .select(['version', 'title', 'body_format', 'body_text', 'message'])
    .where('page_id', '=', pageId)
    .orderBy('version')
    .execute();

describe('4.5 create: a page, folder or blog post under a parent, its slug from the title, version 1', () => {
  it('creates under a parent by slug, at the end, with a unique stable slug', async () => {
    const made = await call(t.dev1, 'POST', '/spaces/ENG/pages', {
      title: 'Deploying',
      body: 'Second page of that name.',
      parent: 'guides',
      message: 'First draft',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      slug: 'deploying',
      title: 'Deploying',
      version: 1,
      status: 'current',
      parent: 'guides',
      path: ['Guides'],
      author: { name: 'Dev One' },
      editor: { name: 'Dev One' },
    });
    const again = await call(t.dev1, 'POST', '/spaces/ENG/pages', { title: 'Deploying', parent: 'guides' });
    expect(again.body.slug).toBe('deploying-2');
    expect((await tree(t.dev1)).slice(2, 6)).toEqual(['  setup', '  deploy', '  deploying', '  deploying-2']);
    expect((await versions(made.body.id))[0]).toMatchObject({ version: 1, message: 'First draft', body_format: 'markdown' });
  });

  it('refuses a folder with a body, a blog post with a parent, and an unknown parent (422, nothing made)', async () => {
    const before = await tree(t.lee);
    expect((await call(t.dev1, 'POST', '/spaces/ENG/pages', { title: 'F', kind: 'folder', body: 'x' })).body.error.message).toBe(
      '/body: a folder has no body',
    );
    expect((await call(t.dev1, 'POST', '/spaces/ENG/pages', { title: 'B', kind: 'blog_post', parent: 'guides' })).body.error.message).toBe(
      '/parent: a blog post has no place in the tree',
    );
    expect((await call(t.dev1, 'POST', '/spaces/ENG/pages', { title: 'P', parent: 'nowhere' })).body.error.message).toBe(
      '/parent: no page "nowhere" in space ENG',
    );
    expect(await tree(t.lee)).toEqual(before);
  });

  it('keeps a blog post and a draft out of the tree; the draft is seen by its author and the managers only', async () => {
    await call(t.dev1, 'POST', '/spaces/ENG/pages', { title: 'Weekly update', kind: 'blog_post', body: 'News.' });
    const draft = await call(t.dev1, 'POST', '/spaces/ENG/pages', { title: 'Private thoughts', draft: true });
    expect(draft.body.status).toBe('draft');
    expect(await tree(t.dev1)).not.toContain('weekly-update');
    expect(await tree(t.dev1)).not.toContain('private-thoughts');
    expect((await call(t.vic, 'GET', '/spaces/ENG/pages/private-thoughts')).status).toBe(404);
    expect((await call(t.lee, 'GET', '/spaces/ENG/pages/private-thoughts')).status).toBe(200);
    const published = await call(t.dev1, 'PATCH', '/spaces/ENG/pages/private-thoughts', { draft: false });
    expect(published.body).toMatchObject({ status: 'current', version: 2 });
    expect((await call(t.vic, 'GET', '/spaces/ENG/pages/private-thoughts')).status).toBe(200);
    expect((await call(t.dev1, 'PATCH', '/spaces/ENG/pages/private-thoughts', { draft: true })).body.error.message).toBe(
      '/draft: a published page cannot go back to being a draft',
    );
  });
});

describe('4.5 permissions: write access to the space and the page’s edit restrictions', () => {
  it('refuses a reader, a read token, an outsider (404) and someone an edit restriction leaves out', async () => {
    const vic = await call(t.vic, 'POST', '/spaces/ENG/pages', { title: 'Vic tries' });
    expect(vic.status).toBe(403);
    expect(vic.body.error.message).toBe('You may not write pages in space ENG: it needs knowledge:edit in space ENG');
    expect((await call(t.leeRead, 'PATCH', '/spaces/ENG/pages/welcome', { title: 'x' })).status).toBe(403);
    expect((await call(t.olga, 'PATCH', '/spaces/ENG/pages/welcome', { title: 'x' })).status).toBe(404);
    const frozen = await call(t.dev1, 'PATCH', '/spaces/ENG/pages/frozen', { body: 'changed' });
    expect(frozen.status).toBe(403);
    expect(frozen.body.error.message).toBe('Page frozen may be changed only by the people its edit restrictions name');
    expect((await call(t.lee, 'PATCH', '/spaces/ENG/pages/frozen', { body: 'Lee may.' })).status).toBe(200);
  });

  it('lets the Writers group write in the handbook, and everyone read it', async () => {
    expect((await call(t.dev1, 'POST', '/spaces/HANDBOOK/pages', { title: 'Expenses' })).status).toBe(201);
    expect((await call(t.olga, 'GET', '/spaces/HANDBOOK/pages/expenses')).status).toBe(200);
    expect((await call(t.olga, 'POST', '/spaces/HANDBOOK/pages', { title: 'Olga' })).status).toBe(403);
  });
});

describe('4.5 update: every change a new version; a body replaces the body with Markdown; `version` guards against lost updates', () => {
  it('replaces an imported body with Markdown, keeping the original in the previous version', async () => {
    const page = await call(t.lee, 'GET', '/spaces/ENG/pages/legacy-import');
    const changed = await call(t.lee, 'PATCH', '/spaces/ENG/pages/legacy-import', {
      body: '# Rewritten',
      version: page.body.version,
      message: 'Converted',
    });
    expect(changed.body).toMatchObject({
      version: 2,
      body: { format: 'markdown', text: '# Rewritten' },
      text: 'Rewritten',
      editor: { name: 'Lee Lead' },
    });
    const [first, second] = await versions(page.body.id);
    expect(first).toMatchObject({ version: 1, body_format: 'imported_storage' });
    expect(second).toMatchObject({ version: 2, body_format: 'markdown', message: 'Converted' });
  });

  it('refuses a save of a version someone saved since with 409 stale, changing nothing', async () => {
    const page = await call(t.dev1, 'GET', '/spaces/ENG/pages/setup');
    expect((await call(t.dev1, 'PATCH', '/spaces/ENG/pages/setup', { title: 'Setting up (new)', version: page.body.version })).status).toBe(
      200,
    );
    const stale = await call(t.lee, 'PATCH', '/spaces/ENG/pages/setup', { body: 'Lost?', version: page.body.version });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toEqual({
      code: 'stale',
      message: `Page setup was saved since version ${page.body.version}: it is at version ${page.body.version + 1}; read it again and redo the change`,
    });
    expect((await call(t.lee, 'GET', '/spaces/ENG/pages/setup')).body.body.text).not.toBe('Lost?');
  });

  it('lets exactly one of two concurrent saves of the same version win; the other is 409', async () => {
    const page = await call(t.dev1, 'GET', '/spaces/ENG/pages/deploy');
    const answers = await Promise.all([
      call(t.dev1, 'PATCH', '/spaces/ENG/pages/deploy', { body: 'From Dev', version: page.body.version }),
      call(t.lee, 'PATCH', '/spaces/ENG/pages/deploy', { body: 'From Lee', version: page.body.version }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await call(t.lee, 'GET', '/spaces/ENG/pages/deploy')).body).toMatchObject({
      version: page.body.version + 1,
      body: { text: winner.body.body.text },
    });
  });
});

describe('4.5 move: parent, before or after a sibling; under itself or below is 422 cycle', () => {
  it('moves a page before a sibling and to the top', async () => {
    const moved = await call(t.lee, 'POST', '/spaces/ENG/pages/deploy/move', { before: 'setup' });
    expect(moved.status).toBe(200);
    expect((await tree(t.lee)).slice(2, 4)).toEqual(['  deploy', '  setup']);
    await call(t.lee, 'POST', '/spaces/ENG/pages/deploy/move', { parent: null, after: 'welcome' });
    expect((await tree(t.lee)).slice(0, 2)).toEqual(['welcome', 'deploy']);
    expect((await call(t.lee, 'GET', '/spaces/ENG/pages/deploy')).body.path).toEqual([]);
  });

  it('refuses a move under itself or a page below it, and a blog post’s move', async () => {
    await call(t.lee, 'POST', '/spaces/ENG/pages', { title: 'Inner', parent: 'setup' });
    const self = await call(t.lee, 'POST', '/spaces/ENG/pages/guides/move', { parent: 'guides' });
    expect(self.status).toBe(422);
    expect(self.body.error).toEqual({ code: 'cycle', message: '/parent: guides cannot go under itself' });
    const below = await call(t.lee, 'POST', '/spaces/ENG/pages/guides/move', { parent: 'inner' });
    expect(below.body.error).toEqual({ code: 'cycle', message: '/parent: inner is below guides; a page cannot go under a page below it' });
    const blog = await call(t.lee, 'POST', '/spaces/ENG/pages/release-notes/move', { parent: 'guides' });
    expect(blog.body.error.message).toBe('/: a blog post has no place in the tree');
  });
});

describe('4.5 delete: the page and the pages under it leave the space; the answer says archived', () => {
  it('archives a subtree: out of the tree, reads and search', async () => {
    await call(t.lee, 'POST', '/spaces/ENG/pages', { title: 'Old stuff', kind: 'folder' });
    await call(t.lee, 'POST', '/spaces/ENG/pages', { title: 'Old page', parent: 'old-stuff', body: 'obsolete wording' });
    const deleted = await call(t.dev1, 'DELETE', '/spaces/ENG/pages/old-stuff');
    expect(deleted.body).toMatchObject({ slug: 'old-stuff', status: 'archived', archived: true });
    expect(await tree(t.lee)).not.toContain('old-page');
    expect((await call(t.lee, 'GET', '/spaces/ENG/pages/old-page')).status).toBe(404);
    expect((await call(t.lee, 'GET', '/search?query=obsolete')).body.pages).toEqual([]);
  });
});

describe('4.5 git spaces: any write but `published` is 422 git_space', () => {
  it('refuses edits, creates, moves and deletes, and takes `published`', async () => {
    for (const [method, path, body] of [
      ['PATCH', '/spaces/DOCS/pages/api', { body: 'x' }],
      ['POST', '/spaces/DOCS/pages', { title: 'New' }],
      ['POST', '/spaces/DOCS/pages/api/move', { parent: null }],
      ['DELETE', '/spaces/DOCS/pages/api', undefined],
    ] as const) {
      const refused = await call(t.lee, method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(422);
      expect(refused.body.error.code).toBe('git_space');
    }
    const published = await call(t.lee, 'PATCH', '/spaces/DOCS/pages/api', { published: true });
    expect(published.body).toMatchObject({ published: true, version: 2 });
  });
});

describe('4.8 the knowledge tools: the same answers and errors; archive_page alone destructive', () => {
  it('creates and reads through tools as through REST', async () => {
    const made = await callTool(service, t.dev1, 'create_page', { space: 'ENG', title: 'From an agent', body: 'Agent words' });
    expect(made.isError, made.content[0]!.text).toBe(false);
    const read = await callTool(service, t.dev1, 'get_page', { space: 'ENG', page: made.structuredContent.slug });
    expect(read.structuredContent).toEqual((await call(t.dev1, 'GET', `/spaces/ENG/pages/${made.structuredContent.slug}`)).body);
    const stale = await callTool(service, t.dev1, 'update_page', { space: 'ENG', page: 'from-an-agent', body: 'y', version: 99 });
    expect(stale.isError).toBe(true);
    expect(stale.content[0]!.text).toContain('was saved since version 99');
    const { postMcp, request } = await import('../mcp/mcp-client.ts');
    const tools = (await postMcp(service, request('tools/list'), { token: t.dev1 })).body.result.tools as {
      name: string;
      annotations: Record<string, boolean>;
    }[];
    const mine = tools.filter((x) =>
      ['list_spaces', 'get_page_tree', 'get_page', 'search_pages', 'create_page', 'update_page', 'move_page', 'archive_page'].includes(
        x.name,
      ),
    );
    expect(mine).toHaveLength(8);
    for (const tool of mine) expect(tool.annotations.destructiveHint, tool.name).toBe(tool.name === 'archive_page');
  });
});
