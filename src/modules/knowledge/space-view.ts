import { isUuid } from '../../core/schema-kit.ts';
import type { Context } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { spaceLevels, type SpaceAccess, type SpaceRow } from './policy.ts';
import { findSpace, pagesWithAncestors, spacePages, spaceRestrictions, type PageNode, type Restriction } from './repo.ts';

/** A space as one request sees it: the member's levels, its pages (all, or those a read needs), and which the member may see or edit. */
export interface SpaceView {
  space: SpaceRow;
  access: SpaceAccess;
  pages: PageNode[];
  byId: Map<string, PageNode>;
  /** behind a view restriction (on the page or above it) the member does not pass */
  viewBlocked: Set<string>;
  /** an edit restriction on the page the member does not pass */
  editBlocked: Set<string>;
}

/** A space the member may read, by key; any other is 404, as if it did not exist (spec 4.5). */
async function readableSpace(ctx: Context, key: string): Promise<{ space: SpaceRow; access: SpaceAccess }> {
  const space = await findSpace(ctx.db, key);
  const access = space ? (await spaceLevels(ctx, [space])).get(space.id)! : undefined;
  if (!space || !access || access.member === 'none') throw notFound(`Space ${key.trim()}`);
  return { space, access };
}

/** A readable space with all its pages: for the tree and for changes (a move, a delete, a new slug). */
export async function openSpace(ctx: Context, key: string): Promise<SpaceView> {
  const { space, access } = await readableSpace(ctx, key);
  const [pages, restrictions] = await Promise.all([spacePages(ctx.db, space.id), spaceRestrictions(ctx.db, space.id, ctx.actor.memberId)]);
  return viewOf(space, access, pages, restrictions);
}

/**
 * A readable space with only the pages named (by slug or id) and those above them: enough to
 * find, check and present them, at the cost of their depth rather than of the space's size.
 */
export async function openSpaceAt(ctx: Context, key: string, refs: readonly string[]): Promise<SpaceView> {
  const { space, access } = await readableSpace(ctx, key);
  const wanted = refs.map((ref) => ref.trim().toLowerCase());
  const [pages, restrictions] = await Promise.all([
    pagesWithAncestors(ctx.db, space.id, { ids: wanted.filter(isUuid), slugs: wanted }),
    spaceRestrictions(ctx.db, space.id, ctx.actor.memberId),
  ]);
  return viewOf(space, access, pages, restrictions);
}

function viewOf(space: SpaceRow, access: SpaceAccess, pages: PageNode[], restrictions: Restriction[]): SpaceView {
  const byId = new Map(pages.map((p) => [p.id, p]));
  const managing = access.member === 'manage';
  const blockedHere = new Set(restrictions.filter((r) => r.kind === 'view' && !r.passes && !managing).map((r) => r.page_id));
  const viewBlocked = new Set<string>();
  for (const page of pages) {
    for (
      let at: PageNode | undefined = page, steps = 0;
      at && steps < 1000;
      at = at.parent_id ? byId.get(at.parent_id) : undefined, steps += 1
    ) {
      if (blockedHere.has(at.id)) {
        viewBlocked.add(page.id);
        break;
      }
    }
  }
  const editBlocked = new Set(restrictions.filter((r) => r.kind === 'edit' && !r.passes && !managing).map((r) => r.page_id));
  return { space, access, pages, byId, viewBlocked, editBlocked };
}

/** Whether the member may see a page: not deleted, not another's draft (managers see drafts), not behind a view restriction. */
export function canSee(ctx: Context, view: SpaceView, page: PageNode): boolean {
  if (page.archived_at !== null) return false;
  if (page.draft && page.author_id !== ctx.actor.memberId && view.access.member !== 'manage') return false;
  return !view.viewBlocked.has(page.id);
}

/** A page by slug or id, archived ones included (the caller decides). */
export function findPage(view: SpaceView, ref: string): PageNode | undefined {
  const wanted = ref.trim().toLowerCase();
  if (isUuid(wanted)) {
    const byId = view.byId.get(wanted);
    if (byId) return byId;
  }
  // a live page holds its slug before an archived one that once had it
  return view.pages
    .filter((p) => p.slug.toLowerCase() === wanted)
    .sort((a, b) => Number(a.archived_at !== null) - Number(b.archived_at !== null))[0];
}

/** A page the member may see, or 404. */
export function visiblePage(ctx: Context, view: SpaceView, ref: string): PageNode {
  const page = findPage(view, ref);
  if (!page || !canSee(ctx, view, page)) throw notFound(`Page ${ref.trim()} in space ${view.space.key}`);
  return page;
}

/**
 * The pages above a page that the member may see, top first: its path, and the last is the parent
 * they are shown. A draft they may not read lends nothing to the pages placed under it.
 */
export function shownAncestors(ctx: Context, view: SpaceView, page: PageNode): PageNode[] {
  const above: PageNode[] = [];
  const parentOf = (at: PageNode) => (at.parent_id ? view.byId.get(at.parent_id) : undefined);
  for (let at = parentOf(page), steps = 0; at && steps < 1000; at = parentOf(at), steps += 1) {
    if (canSee(ctx, view, at)) above.unshift(at);
  }
  return above;
}

/** The page and every page under it. */
export function subtree(view: SpaceView, rootId: string): PageNode[] {
  const children = new Map<string, PageNode[]>();
  for (const page of view.pages) if (page.parent_id) children.set(page.parent_id, [...(children.get(page.parent_id) ?? []), page]);
  const out: PageNode[] = [];
  const walk = (id: string) => {
    const page = view.byId.get(id);
    if (!page) return;
    out.push(page);
    for (const child of children.get(id) ?? []) walk(child.id);
  };
  walk(rootId);
  return out;
}
