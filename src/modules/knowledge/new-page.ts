import type { Kysely } from 'kysely';
import type { PageKind } from './tables.ts';
import type { DB } from '../../storage/schema.ts';
import { bodyWords, saveLinks } from './repo.ts';

export interface PageContent {
  title: string;
  body_format: string | null;
  body_text: string | null;
}

/** A new page as its creator makes it: a member through the API, or a seed of the workspace file. */
export interface NewPage {
  spaceId: string;
  spaceKey: string;
  slug: string;
  content: PageContent;
  kind: PageKind;
  parentId: string | null;
  rank: string;
  draft: boolean;
  published: boolean;
  labels?: string[];
  authorId: string | null;
  /** The token's name, or `workspace file`: what version 1 says it came by. */
  via: string | null;
  message: string | null;
  /** The service's clock (the API's); the database's when left out. */
  at?: string;
}

/**
 * The one write of a new page, for POST …/pages and the workspace file's seeds alike: the page
 * with its words, version 1, and the links its body makes. Returns its id.
 */
export async function insertPage(db: Kysely<DB>, page: NewPage): Promise<string> {
  const { content } = page;
  const { id } = await db
    .insertInto('pages')
    .values({
      space_id: page.spaceId,
      slug: page.slug,
      ...content,
      body_words: bodyWords(content),
      kind: page.kind,
      parent_id: page.parentId,
      rank: page.rank,
      draft: page.draft,
      published: page.published,
      labels: page.labels ?? [],
      author_id: page.authorId,
      editor_id: page.authorId,
      ...(page.at ? { created_at: page.at, edited_at: page.at } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertVersion(db, { pageId: id, version: 1, content, editorId: page.authorId, via: page.via, message: page.message, at: page.at });
  await saveLinks(db, id, content.body_text, page.spaceKey);
  return id;
}

export interface NewVersion {
  pageId: string;
  version: number;
  content: PageContent;
  editorId: string | null;
  via: string | null;
  message: string | null;
  at?: string;
}

/** The one write of a page's version: what the page became, by whom and by what. */
export async function insertVersion(db: Kysely<DB>, v: NewVersion): Promise<void> {
  await db
    .insertInto('page_versions')
    .values({
      page_id: v.pageId,
      version: v.version,
      ...v.content,
      editor_id: v.editorId,
      via: v.via,
      message: v.message,
      ...(v.at ? { created_at: v.at } : {}),
    })
    .execute();
}
