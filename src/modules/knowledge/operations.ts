import { defineOperation } from '../../core/operation.ts';
import { getPage, listSpaces, pageTree, searchPages } from './read.ts';
import {
  CreatePageBody,
  MovePageBody,
  Page,
  PageParams,
  PageSummary,
  PageTree,
  SearchQuery,
  SearchResult,
  SpaceList,
  SpaceParams,
  TrashedPageParams,
  UpdatePageBody,
} from './schemas.ts';
import { archivePage, createPage, movePage, restorePage, updatePage } from './write.ts';

const WRITE_RULE =
  "Needs can_edit in the space (list_spaces) and the page's edit restrictions; in a git space only `published` changes (422 `git_space`).";

export const listSpacesOperation = defineOperation({
  name: 'list_spaces',
  tool: 'list_spaces',
  method: 'GET',
  path: '/knowledge/spaces',
  module: 'knowledge',
  access: 'read',
  summary: 'List spaces',
  description:
    'Spaces you may read, by key: kind, project, source (`git` spaces are written in their repository), home page, `can_edit` and `can_manage`. Others answer 404.',
  response: SpaceList,
  errors: [],
  handler: (ctx) => listSpaces(ctx),
});

export const getPageTreeOperation = defineOperation({
  name: 'get_page_tree',
  tool: 'get_page_tree',
  method: 'GET',
  path: '/knowledge/spaces/:space/tree',
  module: 'knowledge',
  access: 'read',
  summary: "Read a space's page tree",
  description:
    'Lists the pages and folders of a space in tree order, each with its parent’s slug and depth (0 at the top). ' +
    'Drafts, blog posts and deleted pages are not in the tree; the pages under a draft stand in its place.',
  params: SpaceParams,
  response: PageTree,
  errors: ['not_found'],
  handler: (ctx, input) => pageTree(ctx, input.space),
});

export const getPageOperation = defineOperation({
  name: 'get_page',
  tool: 'get_page',
  method: 'GET',
  path: '/knowledge/spaces/:space/pages/:page',
  module: 'knowledge',
  access: 'read',
  summary: 'Read a page',
  description:
    'A page by slug or id: its body as stored, its `text`, version, path, labels, backlinks and the tickets it mentions that you may see. Pass `version` to update_page to be told of a save meanwhile.',
  params: PageParams,
  response: Page,
  errors: ['not_found'],
  handler: (ctx, input) => getPage(ctx, input.space, input.page),
});

export const searchPagesOperation = defineOperation({
  name: 'search_pages',
  tool: 'search_pages',
  method: 'GET',
  path: '/knowledge/search',
  module: 'knowledge',
  access: 'read',
  summary: 'Search pages',
  description:
    'Pages you may see containing every word of `query` (or its beginning) in title or body, best first (title weighs more); each with a `passage`, the words in **bold**.',
  query: SearchQuery,
  response: SearchResult,
  errors: ['invalid'],
  handler: (ctx, input) => searchPages(ctx, input),
});

export const createPageOperation = defineOperation({
  name: 'create_page',
  tool: 'create_page',
  method: 'POST',
  path: '/knowledge/spaces/:space/pages',
  module: 'knowledge',
  access: 'write',
  summary: 'Create a page',
  description: `Creates a page, a folder (no body) or a blog post (outside the tree) under \`parent\`, last among its siblings. Its slug comes from the title and never changes. A draft is seen by you and the managers until published. ${WRITE_RULE}`,
  params: SpaceParams,
  body: CreatePageBody,
  response: Page,
  status: 201,
  errors: ['not_found', 'forbidden', 'invalid', 'git_space'],
  handler: (ctx, input) => createPage(ctx, input.space, input),
});

export const updatePageOperation = defineOperation({
  name: 'update_page',
  tool: 'update_page',
  method: 'PATCH',
  path: '/knowledge/spaces/:space/pages/:page',
  module: 'knowledge',
  access: 'write',
  summary: 'Change a page',
  description: `Saves a new version (title; body in Markdown, replacing any format; \`published\`; \`draft: false\` publishes) with your \`message\`. Give the \`version\` you read: a save since then makes it 409 \`stale\`, nothing changed. ${WRITE_RULE}`,
  params: PageParams,
  body: UpdatePageBody,
  response: Page,
  errors: ['not_found', 'forbidden', 'invalid', 'stale', 'git_space'],
  handler: (ctx, input) => updatePage(ctx, input.space, input.page, input),
});

export const movePageOperation = defineOperation({
  name: 'move_page',
  tool: 'move_page',
  method: 'POST',
  path: '/knowledge/spaces/:space/pages/:page/move',
  module: 'knowledge',
  access: 'write',
  summary: 'Move a page',
  description: `Moves a page and its subtree under \`parent\` (null: the top; left out: where it is, or where the sibling named is), \`before\`/\`after\` a sibling, else last. Under itself: 422 \`cycle\`. Blog posts are not in the tree. ${WRITE_RULE}`,
  params: PageParams,
  body: MovePageBody,
  response: Page,
  errors: ['not_found', 'forbidden', 'invalid', 'cycle', 'git_space'],
  handler: (ctx, input) => movePage(ctx, input.space, input.page, input),
});

export const archivePageOperation = defineOperation({
  name: 'archive_page',
  tool: 'archive_page',
  method: 'DELETE',
  path: '/knowledge/spaces/:space/pages/:page',
  module: 'knowledge',
  access: 'write',
  destructive: true,
  idempotent: false,
  summary: 'Delete a page',
  description: `Moves a page and its subtree to the space's trash: out of the tree, search and reads; managers restore it in the browser. Answers its summary with \`archived: true\`. ${WRITE_RULE}`,
  params: PageParams,
  response: PageSummary,
  errors: ['not_found', 'forbidden', 'git_space'],
  handler: (ctx, input) => archivePage(ctx, input.space, input.page),
});

// A deleted page comes back only in the browser (spec 3.5): web-only, never a route or a tool.
export const restorePageOperation = defineOperation({
  name: 'restore_page',
  doors: 'web',
  module: 'knowledge',
  access: 'write',
  summary: 'Restore a page from the trash',
  description:
    'Brings a deleted page back from its space’s trash with the pages deleted together with it; under a parent still deleted, to the top. Needs knowledge:manage in the space.',
  params: TrashedPageParams,
  response: PageSummary,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => restorePage(ctx, input.space, input.page),
});

export const knowledgeOperations = [
  listSpacesOperation,
  getPageTreeOperation,
  getPageOperation,
  searchPagesOperation,
  createPageOperation,
  updatePageOperation,
  movePageOperation,
  archivePageOperation,
  restorePageOperation,
];
