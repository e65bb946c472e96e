import { sql, type Kysely } from 'kysely';
import { plainText } from '../../core/rich-text.ts';
import { PREPARE } from '../../storage/prepared.ts';
import type { DB } from '../../storage/schema.ts';
import type { SpaceRow } from './policy.ts';
import type { PageKind } from './tables.ts';

export function spacesQuery(db: Kysely<DB>) {
  return db
    .selectFrom('spaces as s')
    .leftJoin('projects as p', 'p.id', 's.project_id')
    .select(['s.id', 's.key', 's.name', 's.kind', 's.owner_id', 's.project_id', 'p.key as project_key', 's.source', 's.home_page']);
}

export async function allSpaces(db: Kysely<DB>): Promise<SpaceRow[]> {
  return spacesQuery(db).orderBy('s.key').execute();
}

export async function findSpace(db: Kysely<DB>, key: string): Promise<SpaceRow | undefined> {
  return spacesQuery(db).modifyFront(sql.raw(PREPARE)).where(sql<string>`lower(s.key)`, '=', key.trim().toLowerCase()).executeTakeFirst();
}

/** A page of a space as the tree, visibility and paths need it. */
export interface PageNode {
  id: string;
  slug: string;
  title: string;
  kind: PageKind;
  parent_id: string | null;
  rank: string;
  draft: boolean;
  author_id: string | null;
  archived_at: string | null;
  version: number;
  edited_at: string;
}

export async function spacePages(db: Kysely<DB>, spaceId: string): Promise<PageNode[]> {
  return db
    .selectFrom('pages')
    .select(['id', 'slug', 'title', 'kind', 'parent_id', 'rank', 'draft', 'author_id', 'archived_at', 'version', 'edited_at'])
    .where('space_id', '=', spaceId)
    .orderBy('rank')
    .orderBy('id')
    .execute();
}

/**
 * The pages named (by id, or by slug case-insensitively) and every page above them: what a read
 * of one page needs (its path, the restrictions above it) without the rest of its space.
 */
export async function pagesWithAncestors(
  db: Kysely<DB>,
  spaceId: string,
  refs: { ids: readonly string[]; slugs: readonly string[] },
): Promise<PageNode[]> {
  const { rows } = await sql<PageNode>`/*prepare*/
    with recursive chain as (
      select id, slug, title, kind, parent_id, rank, draft, author_id, archived_at, version, edited_at from pages
      where space_id = ${spaceId} and (id = any(${refs.ids}::uuid[]) or lower(slug) = any(${refs.slugs}::text[]))
      union
      select p.id, p.slug, p.title, p.kind, p.parent_id, p.rank, p.draft, p.author_id, p.archived_at, p.version, p.edited_at
      from pages p join chain c on p.id = c.parent_id
    )
    select * from chain
  `.execute(db);
  return rows;
}

export interface Restriction {
  page_id: string;
  kind: 'view' | 'edit';
  /** the member is among those the restriction lets through */
  passes: boolean;
}

export async function spaceRestrictions(db: Kysely<DB>, spaceId: string, memberId: string): Promise<Restriction[]> {
  const { rows } = await sql<Restriction>`/*prepare*/
    select r.page_id, r.kind,
      bool_or(r.member_id = ${memberId} or r.group_id in (select group_id from group_members where member_id = ${memberId})) as passes
    from page_restrictions r join pages p on p.id = r.page_id
    where p.space_id = ${spaceId}
    group by r.page_id, r.kind
  `.execute(db);
  return rows;
}

/** A readable slug from a title: lowercase words joined by dashes, accents dropped. */
export function slugOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'page';
}

/** The first free slug of a space from a title (`title`, `title-2`, …): slugs are unique and never reused while a page holds them. */
export async function freeSlug(db: Kysely<DB>, spaceId: string, title: string): Promise<string> {
  const base = slugOf(title);
  const { rows } = await sql<{
    slug: string;
  }>`select lower(slug) as slug from pages where space_id = ${spaceId} and (lower(slug) = ${base} or lower(slug) like ${`${base}-%`})`.execute(
    db,
  );
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

// each part stops at the next bracket: a line of unclosed `[[a|` is read in time linear in its length
const WIKI_LINK = /\[\[([^[\]|#\n]{1,200})(?:[|#][^[\]\n]*)?\]\]/g;
const PAGE_URL = /\/wiki\/([A-Za-z0-9_-]+)\/([a-z0-9-]+)/g;

/** Pages a body links to: `[[slug]]`, `[[Title]]`, `[[SPACE:slug]]`, or a link to `/wiki/SPACE/slug`. */
export function linkTargets(body: string | null, ownSpaceKey: string): { space: string; ref: string }[] {
  if (!body) return [];
  const found: { space: string; ref: string }[] = [];
  for (const match of body.matchAll(WIKI_LINK)) {
    const target = match[1]!.trim();
    const colon = target.indexOf(':');
    found.push(
      colon > 0 ? { space: target.slice(0, colon).trim(), ref: target.slice(colon + 1).trim() } : { space: ownSpaceKey, ref: target },
    );
  }
  for (const match of body.matchAll(PAGE_URL)) found.push({ space: match[1]!, ref: match[2]! });
  return found;
}

/** The words kept beside a body (the page's `text`), worked out once when the body is written. */
export function bodyWords(content: { body_format: string | null; body_text: string | null }): string | null {
  return content.body_text === null ? null : plainText(content.body_format, content.body_text);
}

/** Rewrites the links a page makes (in the change's transaction). */
export async function saveLinks(db: Kysely<DB>, pageId: string, body: string | null, ownSpaceKey: string): Promise<void> {
  await db.deleteFrom('page_links').where('from_page_id', '=', pageId).execute();
  const seen = new Set<string>();
  const rows = linkTargets(body, ownSpaceKey)
    .map((t) => ({ from_page_id: pageId, to_space: t.space.toLowerCase(), to_ref: t.ref.toLowerCase().slice(0, 255) }))
    .filter((r) => !seen.has(`${r.to_space}\0${r.to_ref}`) && seen.add(`${r.to_space}\0${r.to_ref}`))
    .slice(0, 200);
  if (rows.length) await db.insertInto('page_links').values(rows).execute();
}
