import type { Context } from '../../core/context.ts';
import { ApiError, forbidden, invalid } from '../../core/errors.ts';
import { rankAfter, rankBetween } from '../../core/rank.ts';
import { requireLevel } from './policy.ts';
import { presentSummary } from './present.ts';
import { presentPage } from './read.ts';
import { insertPage, insertVersion, type PageContent } from './new-page.ts';
import { bodyWords, freeSlug, saveLinks, type PageNode } from './repo.ts';
import type { CreatePageBody, MovePageBody, Page, PageSummary, UpdatePageBody } from './schemas.ts';
import { canSee, findPage, openSpace, openSpaceAt, subtree, visiblePage, type SpaceView } from './space-view.ts';

function refuseGit(view: SpaceView, doing: string): void {
  if (view.space.source === 'git')
    throw new ApiError(
      'git_space',
      `Space ${view.space.key} is kept in git: ${doing} happens there; only \`published\` can be changed here`,
    );
}

function requireEditable(ctx: Context, view: SpaceView, page: PageNode): void {
  requireLevel(view.access.act, 'edit', view.space, ctx);
  if (view.editBlocked.has(page.id)) throw forbidden(`Page ${page.slug} may be changed only by the people its edit restrictions name`);
}

/**
 * A move or a delete takes the pages beneath along: each must be one the member may see and
 * change, or nothing happens (403 naming none of them: some may be hidden from the member).
 */
function requireAllBeneath(ctx: Context, view: SpaceView, page: PageNode, doing: 'move' | 'delete'): void {
  const beneath = subtree(view, page.id).filter((p) => p.id !== page.id && p.archived_at === null);
  if (beneath.every((p) => canSee(ctx, view, p) && !view.editBlocked.has(p.id))) return;
  const taking = doing === 'move' ? 'moving it would move them' : 'deleting it would delete them';
  const why = `pages beneath it are ones you may not change, and ${taking} too`;
  throw forbidden(`You may not ${doing} page ${page.slug}: ${why}`);
}

/** A page named in a body (`parent`, `before`, `after`): one the member can see in the space, else 422. */
function namedPage(ctx: Context, view: SpaceView, ref: string, pointer: string): PageNode {
  const page = findPage(view, ref);
  if (!page || !canSee(ctx, view, page)) throw invalid(pointer, `no page "${ref.trim()}" in space ${view.space.key}`);
  return page;
}

function siblingRanks(view: SpaceView, parentId: string | null, except?: string): PageNode[] {
  return view.pages
    .filter((p) => p.parent_id === parentId && p.id !== except && p.kind !== 'blog_post')
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
}

async function writeVersion(ctx: Context, pageId: string, version: number, content: PageContent, message: string | null): Promise<void> {
  await insertVersion(ctx.db, {
    pageId,
    version,
    content,
    editorId: ctx.actor.memberId,
    via: ctx.agent.name,
    message,
    at: ctx.now().toISOString(),
  });
}

/** POST …/pages (spec 4.5): a page, folder (no body) or blog post (outside the tree); version 1. */
export async function createPage(ctx: Context, spaceKey: string, body: CreatePageBody): Promise<Page> {
  const view = await openSpace(ctx, spaceKey);
  requireLevel(view.access.act, 'edit', view.space, ctx);
  refuseGit(view, 'writing pages');
  const kind = body.kind ?? 'page';
  if (kind === 'folder' && body.body) throw invalid('/body', 'a folder has no body');
  let parent: PageNode | null = null;
  if (body.parent !== undefined && body.parent !== null && body.parent.trim() !== '') {
    if (kind === 'blog_post') throw invalid('/parent', 'a blog post has no place in the tree');
    parent = namedPage(ctx, view, body.parent, '/parent');
    if (parent.kind === 'blog_post') throw invalid('/parent', `${parent.slug} is a blog post: pages go under pages and folders`);
  }
  const title = body.title.trim();
  if (title === '') throw invalid('/title', 'must not be blank');
  const content = {
    title,
    body_format: kind === 'folder' || body.body === undefined ? null : 'markdown',
    body_text: kind === 'folder' ? null : (body.body ?? null),
  };
  const id = await insertPage(ctx.db, {
    spaceId: view.space.id,
    spaceKey: view.space.key,
    slug: await freeSlug(ctx.db, view.space.id, title),
    content,
    kind,
    parentId: parent?.id ?? null,
    rank: rankAfter(siblingRanks(view, parent?.id ?? null).map((p) => p.rank)),
    draft: body.draft ?? false,
    published: body.published ?? false,
    authorId: ctx.actor.memberId,
    via: ctx.agent.name,
    message: body.message ?? null,
    at: ctx.now().toISOString(),
  });
  return presentPage(ctx, await openSpaceAt(ctx, spaceKey, [id]), id);
}

/**
 * PATCH …/pages/{page}: a new version with what changed; a body replaces the body with Markdown
 * whatever its format (the previous version keeps the original); `version` that someone saved
 * since is 409 `stale`. In a git space only `published` may change.
 */
export async function updatePage(ctx: Context, spaceKey: string, ref: string, body: UpdatePageBody): Promise<Page> {
  const view = await openSpace(ctx, spaceKey);
  const node = visiblePage(ctx, view, ref);
  requireEditable(ctx, view, node);
  if (body.title !== undefined || body.body !== undefined || body.draft !== undefined) refuseGit(view, 'editing pages');
  // the row is locked until the change commits: of two saves of one version, the second waits and then finds it stale
  const current = await ctx.db
    .selectFrom('pages')
    .select(['id', 'version', 'title', 'body_format', 'body_text', 'draft', 'published', 'kind'])
    .where('id', '=', node.id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (body.version !== undefined && body.version !== current.version) {
    throw new ApiError(
      'stale',
      `Page ${node.slug} was saved since version ${body.version}: it is at version ${current.version}; read it again and redo the change`,
    );
  }
  if (body.draft === true && !current.draft) throw invalid('/draft', 'a published page cannot go back to being a draft');
  if (body.body !== undefined && current.kind === 'folder') throw invalid('/body', 'a folder has no body');
  const title = body.title?.trim();
  if (title === '') throw invalid('/title', 'must not be blank');
  const next = {
    title: title ?? current.title,
    body_format: body.body !== undefined ? 'markdown' : current.body_format,
    body_text: body.body !== undefined ? body.body : current.body_text,
    draft: body.draft === false ? false : current.draft,
    published: body.published ?? current.published,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => next[k] !== current[k]);
  if (!changed) return presentPage(ctx, view, node.id);
  const version = current.version + 1;
  await ctx.db
    .updateTable('pages')
    .set({
      ...next,
      ...(body.body !== undefined ? { body_words: bodyWords(next) } : {}),
      version,
      editor_id: ctx.actor.memberId,
      edited_at: ctx.now().toISOString(),
    })
    .where('id', '=', node.id)
    .execute();
  await writeVersion(
    ctx,
    node.id,
    version,
    { title: next.title, body_format: next.body_format, body_text: next.body_text },
    body.message ?? null,
  );
  if (body.body !== undefined) await saveLinks(ctx.db, node.id, next.body_text, view.space.key);
  return presentPage(ctx, await openSpaceAt(ctx, spaceKey, [node.id]), node.id);
}

/**
 * POST …/pages/{page}/move: under `parent` (null: the top; left out: where it is, or where the
 * sibling named is), `before` or `after` a sibling, else at the end. Under itself or a page below
 * it is 422 `cycle`; a blog post has no place in the tree.
 */
export async function movePage(ctx: Context, spaceKey: string, ref: string, body: MovePageBody): Promise<Page> {
  const view = await openSpace(ctx, spaceKey);
  const page = visiblePage(ctx, view, ref);
  requireEditable(ctx, view, page);
  refuseGit(view, 'moving pages');
  requireAllBeneath(ctx, view, page, 'move');
  if (page.kind === 'blog_post') throw invalid('/', 'a blog post has no place in the tree');
  if (body.before !== undefined && body.after !== undefined) throw invalid('/after', 'give before or after, not both');
  const neighbourRef = body.before ?? body.after;
  const neighbour =
    neighbourRef !== undefined ? namedPage(ctx, view, neighbourRef, body.before !== undefined ? '/before' : '/after') : null;
  let parent: PageNode | null;
  if (body.parent === undefined)
    parent = neighbour
      ? neighbour.parent_id
        ? view.byId.get(neighbour.parent_id)!
        : null
      : page.parent_id
        ? (view.byId.get(page.parent_id) ?? null)
        : null;
  else parent = body.parent === null || body.parent.trim() === '' ? null : namedPage(ctx, view, body.parent, '/parent');
  if (parent) {
    if (subtree(view, page.id).some((p) => p.id === parent!.id)) {
      throw new ApiError(
        'cycle',
        parent.id === page.id
          ? `/parent: ${page.slug} cannot go under itself`
          : `/parent: ${parent.slug} is below ${page.slug}; a page cannot go under a page below it`,
      );
    }
    if (parent.kind === 'blog_post') throw invalid('/parent', `${parent.slug} is a blog post: pages go under pages and folders`);
  }
  const siblings = siblingRanks(view, parent?.id ?? null, page.id);
  let rank: string;
  if (neighbour) {
    if (neighbour.id === page.id) throw invalid(body.before !== undefined ? '/before' : '/after', 'names the page being moved');
    const at = siblings.findIndex((s) => s.id === neighbour.id);
    if (at < 0)
      throw invalid(
        body.before !== undefined ? '/before' : '/after',
        `${neighbour.slug} is not ${parent ? `under ${parent.slug}` : 'at the top of the space'}`,
      );
    rank =
      body.before !== undefined
        ? rankBetween(siblings[at - 1]?.rank ?? null, neighbour.rank)
        : rankBetween(neighbour.rank, siblings[at + 1]?.rank ?? null);
  } else rank = rankAfter(siblings.map((s) => s.rank));
  const version = page.version + 1;
  await ctx.db
    .updateTable('pages')
    .set({ parent_id: parent?.id ?? null, rank, version, editor_id: ctx.actor.memberId, edited_at: ctx.now().toISOString() })
    .where('id', '=', page.id)
    .execute();
  const content = await ctx.db
    .selectFrom('pages')
    .select(['title', 'body_format', 'body_text'])
    .where('id', '=', page.id)
    .executeTakeFirstOrThrow();
  await writeVersion(ctx, page.id, version, content, `Moved ${parent ? `under ${parent.title}` : 'to the top of the space'}`);
  return presentPage(ctx, await openSpaceAt(ctx, spaceKey, [page.id]), page.id);
}

/** DELETE …/pages/{page}: the page and the pages under it leave the space for its trash; managers restore them on the trash page. */
export async function archivePage(ctx: Context, spaceKey: string, ref: string): Promise<PageSummary> {
  const view = await openSpace(ctx, spaceKey);
  const page = visiblePage(ctx, view, ref);
  requireEditable(ctx, view, page);
  refuseGit(view, 'deleting pages');
  requireAllBeneath(ctx, view, page, 'delete');
  const now = ctx.now().toISOString();
  const ids = subtree(view, page.id)
    .filter((p) => p.archived_at === null)
    .map((p) => p.id);
  await ctx.db.updateTable('pages').set({ archived_at: now }).where('id', 'in', ids).execute();
  return { ...presentSummary(view.space.key, { ...page, archived_at: now }), archived: true };
}

/**
 * The trash page's Restore (space managers): the page and what was deleted with it come back;
 * under a deleted parent, to the top. Its slug was never given to another page (slugs stay unique
 * in a space, deleted pages included).
 */
export async function restorePage(ctx: Context, spaceKey: string, pageId: string): Promise<PageSummary> {
  const view = await openSpace(ctx, spaceKey);
  requireLevel(view.access.act, 'manage', view.space, ctx);
  const page = view.byId.get(pageId);
  if (!page || page.archived_at === null) throw invalid('/page', 'is not in the trash');
  const together = subtree(view, page.id)
    .filter((p) => p.archived_at === page.archived_at)
    .map((p) => p.id);
  const parent = page.parent_id ? view.byId.get(page.parent_id) : undefined;
  await ctx.db.updateTable('pages').set({ archived_at: null }).where('id', 'in', together).execute();
  if (parent && parent.archived_at !== null) {
    await ctx.db
      .updateTable('pages')
      .set({ parent_id: null, rank: rankAfter(siblingRanks(view, null).map((p) => p.rank)) })
      .where('id', '=', page.id)
      .execute();
  }
  return presentSummary(view.space.key, { ...page, archived_at: null });
}

/** The space's trash (managers): deleted pages, newest first. */
export async function trash(ctx: Context, spaceKey: string): Promise<{ space: string; name: string; pages: PageSummary[] }> {
  const view = await openSpace(ctx, spaceKey);
  if (view.access.member !== 'manage')
    throw forbidden(`Only those who manage space ${view.space.key} see its trash: it needs knowledge:manage`);
  const pages = view.pages.filter(
    (p) => p.archived_at !== null && !(p.parent_id && view.byId.get(p.parent_id)?.archived_at === p.archived_at),
  );
  pages.sort((a, b) => (a.archived_at! < b.archived_at! ? 1 : -1));
  return { space: view.space.key, name: view.space.name, pages: pages.map((p) => presentSummary(view.space.key, p)) };
}
