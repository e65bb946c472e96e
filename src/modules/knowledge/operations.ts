import { defineOperation } from '../../core/operation.ts';
import { getPage, listSpaces, pageTree, searchPages } from './read.ts';
import { CreatePageBody, MovePageBody, Page, PageParams, PageSummary, PageTree, SearchQuery, SearchResult, SpaceList, SpaceParams, UpdatePageBody } from './schemas.ts';
import { archivePage, createPage, movePage, updatePage } from './write.ts';

const WRITE_RULE = 'Needs knowledge:edit in the space (see can_edit in list_spaces) and the page’s edit restrictions; in a git space only `published` may change (422 `git_space`).';

export const listSpacesOperation = defineOperation({
  name: 'list_spaces',
  tool: 'list_spaces',
  method: 'GET',
  path: '/knowledge/spaces',
  module: 'knowledge',
  access: 'read',
  summary: 'List the knowledge-base spaces you can read',
  description: 'Lists the spaces you may read, by key: kind (global or personal), project, source (`git` spaces are written in their repository), home page, and whether you may write (`can_edit`) or manage (`can_manage`) there. A space you may not read is not listed and answers 404.',
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
  summary: 'Read a space’s page tree in tree order',
  description: 'Lists the pages and folders of a space in tree order, each with its parent’s slug and depth (0 at the top). Drafts, blog posts and deleted pages are not in the tree.',
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
  summary: 'Read a page by slug or id',
  description: 'Reads a page by slug or id: its body as stored (never converted) and its `text` (the words whatever the format), version, path (titles above it), labels, the pages linking to it, and the tickets it mentions that you may see. Pass `version` back to update_page to be told when someone saved meanwhile.',
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
  summary: 'Search pages by words, best first, with the passage where they were found',
  description: 'Finds pages you may see that contain every word of `query` (each also as the beginning of a word) in the title or body, best first (title words weigh more), optionally in one space; each answer carries a `passage` with the words in **bold**.',
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
  summary: 'Create a page, folder or blog post',
  description: `Creates a page (\`kind\` page, the default), a folder (no body) or a blog post (outside the tree) with a Markdown body, under \`parent\` (slug or id; the top of the space when left out), at the end of its siblings. Its slug comes from the title and never changes. \`draft: true\` keeps it to you and the space’s managers until update_page publishes it. ${WRITE_RULE}`,
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
  summary: 'Change a page: a new version',
  description: `Changes a page’s title, body (Markdown; it replaces the body whatever its format, the previous version keeps the original), \`published\`, or publishes a draft (\`draft: false\`), as a new version with your \`message\`. Give the \`version\` you read: if someone saved since, nothing changes and the answer is 409 \`stale\`. ${WRITE_RULE}`,
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
  summary: 'Move a page in the tree',
  description: `Moves a page (and what is under it) under \`parent\` (slug or id; null for the top; left out: where it is, or where the sibling named is), \`before\` or \`after\` a sibling there, else to the end. Under itself or a page below it: 422 \`cycle\`. A blog post has no place in the tree. ${WRITE_RULE}`,
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
  summary: 'Delete a page and the pages under it (to the space’s trash)',
  description: `Deletes a page and every page under it from the space: they leave the tree, search and reads, and the space’s managers can restore them from its trash in the browser. Answers the page’s summary with \`archived: true\`. ${WRITE_RULE}`,
  params: PageParams,
  response: PageSummary,
  errors: ['not_found', 'forbidden', 'git_space'],
  handler: (ctx, input) => archivePage(ctx, input.space, input.page),
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
];
