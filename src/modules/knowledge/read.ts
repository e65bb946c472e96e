import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { refuseBlank } from '../../core/names.ts';
import { plainText, presentRichText } from '../../core/rich-text.ts';
import { prefixQuery } from '../../core/search-words.ts';
import { toTimestamp } from '../../core/time.ts';
import { PREPARE } from '../../storage/prepared.ts';
import { ticketScope, visibleTicketSql } from '../tickets/index.ts';
import { mayEdit, mayManage, spaceLevels } from './policy.ts';
import { presentSummary } from './present.ts';
import { allSpaces } from './repo.ts';
import type { PageNode } from './repo.ts';
import type { Page, PageSummary, PageTree, Space } from './schemas.ts';
import { canSee, openSpace, openSpaceAt, shownAncestors, visiblePage, type SpaceView } from './space-view.ts';

/** GET /knowledge/spaces: the spaces the member may read, by key. */
export async function listSpaces(ctx: Context): Promise<{ spaces: Space[] }> {
  const spaces = await allSpaces(ctx.db);
  const levels = await spaceLevels(ctx, spaces);
  return {
    spaces: spaces
      .filter((s) => levels.get(s.id)!.member !== 'none')
      .map((s) => {
        const access = levels.get(s.id)!;
        return {
          key: s.key,
          name: s.name,
          kind: s.kind,
          project: s.project_key,
          source: s.source,
          home_page: s.home_page,
          can_edit: mayEdit(access.act),
          can_manage: mayManage(access.act),
        };
      }),
  };
}

/**
 * GET …/tree: pages and folders in tree order (siblings by rank), with depth. Blog posts, deleted
 * and hidden pages are left out with what is under them; a draft is left out alone: the pages
 * under it stand in its place, under its parent.
 */
export async function pageTree(ctx: Context, spaceKey: string): Promise<PageTree> {
  const view = await openSpace(ctx, spaceKey);
  const children = new Map<string | null, typeof view.pages>();
  for (const page of view.pages) {
    if (page.archived_at !== null || view.viewBlocked.has(page.id) || page.kind === 'blog_post') continue;
    const parent = page.parent_id && view.byId.has(page.parent_id) ? page.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), page]);
  }
  const pages: PageTree['pages'] = [];
  const walk = (under: string | null, parent: string | null, depth: number) => {
    for (const page of children.get(under) ?? []) {
      if (page.draft) {
        walk(page.id, parent, depth);
        continue;
      }
      const kind = page.kind as 'page' | 'folder';
      pages.push({ id: page.id, slug: page.slug, title: page.title, kind, parent, depth });
      walk(page.id, page.slug, depth + 1);
    }
  };
  walk(null, null, 0);
  return { space: view.space.key, pages };
}

const TICKET_KEY = /\b[A-Z][A-Z0-9]{1,9}-\d{1,9}\b/g;

async function mentionedTickets(ctx: Context, text: string): Promise<{ key: string; summary: string }[]> {
  const keys = [...new Set(text.match(TICKET_KEY) ?? [])].slice(0, 50);
  if (keys.length === 0) return [];
  const scope = await ticketScope(ctx);
  const { rows } = await sql<{ key: string; summary: string }>`/*prepare*/
    select t.key, t.summary from tickets t where t.key = any(${keys}::text[]) and ${visibleTicketSql(scope)} order by t.key
  `.execute(ctx.db);
  return rows;
}

async function backlinks(ctx: Context, view: SpaceView, pageId: string): Promise<PageSummary[]> {
  const page = view.byId.get(pageId)!;
  const { rows } = await sql<{ page_id: string; space_key: string }>`/*prepare*/
    select distinct l.from_page_id as page_id, s.key as space_key from page_links l
    join pages p on p.id = l.from_page_id join spaces s on s.id = p.space_id
    where l.to_space = ${view.space.key.toLowerCase()} and l.to_ref in (${page.slug.toLowerCase()}, ${page.title.toLowerCase()})
      and p.archived_at is null and p.id <> ${pageId}
  `.execute(ctx.db);
  const found: PageSummary[] = [];
  const linkingBySpace = new Map<string, string[]>();
  for (const row of rows) linkingBySpace.set(row.space_key, [...(linkingBySpace.get(row.space_key) ?? []), row.page_id]);
  for (const [spaceKey, pageIds] of linkingBySpace) {
    // a space the member may not read hides its pages' links
    const linking = await openSpaceAt(ctx, spaceKey, pageIds).catch(() => null);
    for (const id of pageIds) {
      const page = linking?.byId.get(id);
      if (linking && page && canSee(ctx, linking, page)) found.push(presentSummary(linking.space.key, page));
    }
  }
  return found.sort((a, b) => a.title.localeCompare(b.title));
}

export async function presentPage(ctx: Context, view: SpaceView, pageId: string): Promise<Page> {
  const node = view.byId.get(pageId)!;
  const row = await ctx.db
    .selectFrom('pages as p')
    .modifyFront(sql.raw(PREPARE))
    .leftJoin('members as a', 'a.id', 'p.author_id')
    .leftJoin('members as e', 'e.id', 'p.editor_id')
    .select(['p.body_format', 'p.body_text', 'p.body_words', 'p.published', 'p.labels', 'p.created_at', 'p.author_id'])
    .select(['a.display_name as author_name', 'p.editor_id', 'e.display_name as editor_name'])
    .where('p.id', '=', pageId)
    .executeTakeFirstOrThrow();
  const text = row.body_words ?? plainText(row.body_format, row.body_text);
  const above = shownAncestors(ctx, view, node);
  return {
    ...presentSummary(view.space.key, node),
    created_at: toTimestamp(row.created_at),
    body: presentRichText(row.body_format, row.body_text),
    text,
    published: row.published,
    author: row.author_id ? { id: row.author_id, name: row.author_name ?? 'Former member' } : null,
    editor: row.editor_id ? { id: row.editor_id, name: row.editor_name ?? 'Former member' } : null,
    parent: above.at(-1)?.slug ?? null,
    path: above.map((p) => p.title),
    labels: row.labels,
    backlinks: await backlinks(ctx, view, pageId),
    tickets: await mentionedTickets(ctx, `${node.title}\n${text}`),
  };
}

/** GET …/pages/{page}: by slug or id; a page the member may not see is 404. */
export async function getPage(ctx: Context, spaceKey: string, ref: string): Promise<Page> {
  const view = await openSpaceAt(ctx, spaceKey, [ref]);
  return presentPage(ctx, view, visiblePage(ctx, view, ref).id);
}

/**
 * GET /knowledge/search: every word (each also as a beginning) in the title or body, pages the
 * member may see, best first (title words weigh more), each with a passage where the words are.
 */
export async function searchPages(
  ctx: Context,
  input: { query: string; space?: string; limit?: number },
): Promise<{ pages: PageSummary[] }> {
  const words = prefixQuery(input.query);
  if (words === null) throw invalid('/query', 'has no words to search for');
  const limit = input.limit ?? 20;
  const spaces = await allSpaces(ctx.db);
  const levels = await spaceLevels(ctx, spaces);
  let readable = spaces.filter((s) => levels.get(s.id)!.member !== 'none');
  if (input.space !== undefined) {
    refuseBlank(input.space, '/space');
    const named = readable.find((s) => s.key.toLowerCase() === input.space!.trim().toLowerCase());
    if (!named)
      throw invalid(
        '/space',
        `no space "${input.space.trim()}" you can read; spaces are ${readable.map((s) => `"${s.key}"`).join(', ') || 'none'}`,
      );
    readable = [named];
  }
  if (readable.length === 0) return { pages: [] };
  const tsquery = sql`to_tsquery('simple', ${words})`;
  const me = ctx.actor.memberId;
  const managed = readable.filter((s) => levels.get(s.id)!.member === 'manage').map((s) => s.id);
  const keyOf = new Map(readable.map((s) => [s.id, s.key]));
  // What the member may see, in SQL (a space's pages are never all loaded for a search): not
  // deleted; another's draft only where they manage; nothing under a view restriction they do not
  // pass (managers pass all), found by walking down from the few restricted pages.
  const { rows } = await sql<PageNode & { space_id: string }>`
    with recursive blocked(id) as (
      select r.page_id from page_restrictions r join pages rp on rp.id = r.page_id
      where r.kind = 'view' and rp.space_id = any(${readable.map((s) => s.id)}::uuid[]) and not (rp.space_id = any(${managed}::uuid[]))
      group by r.page_id
      having not coalesce(bool_or(r.member_id = ${me} or r.group_id in (select group_id from group_members where member_id = ${me})), false)
      union
      select c.id from pages c join blocked b on c.parent_id = b.id
    )
    select p.id, p.space_id, p.slug, p.title, p.kind, p.parent_id, p.rank, p.draft, p.author_id, p.archived_at, p.version, p.edited_at
    from pages p
    where p.search_vector @@ ${tsquery} and p.space_id = any(${readable.map((s) => s.id)}::uuid[]) and p.archived_at is null
      and (not p.draft or p.author_id = ${me} or p.space_id = any(${managed}::uuid[]))
      and p.id not in (select id from blocked)
    order by ts_rank(p.search_vector, ${tsquery}) desc, p.edited_at desc, p.id
    limit ${limit}
  `.execute(ctx.db);
  const found: PageSummary[] = rows.map((row) => presentSummary(keyOf.get(row.space_id)!, row));
  if (found.length === 0) return { pages: [] };
  // passages only for the pages answered: a headline reads the whole body
  const { rows: passages } = await sql<{ id: string; passage: string }>`
    select p.id, ts_headline('simple', search_words(coalesce(nullif(p.body_text, ''), p.title)), ${tsquery}, 'MaxFragments=1, MaxWords=24, MinWords=8, StartSel=**, StopSel=**') as passage
    from pages p where p.id = any(${found.map((f) => f.id)}::uuid[])
  `.execute(ctx.db);
  const byId = new Map(passages.map((p) => [p.id, p.passage.replace(/\s+/g, ' ').trim()]));
  for (const page of found) page.passage = byId.get(page.id) ?? '';
  return { pages: found };
}
