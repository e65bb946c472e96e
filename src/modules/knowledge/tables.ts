import type { ColumnType, Generated } from 'kysely';

// Row types of migration 0012-knowledge (and 0031) as Kysely sees them.

export type SpaceKind = 'global' | 'personal';
export type SpaceSource = 'native' | 'external_wiki' | 'git' | 'import';
export type PageKind = 'page' | 'folder' | 'blog_post';
export type GrantLevel = 'read' | 'edit' | 'manage';

export interface SpacesTable {
  id: Generated<string>;
  key: string;
  name: string;
  kind: ColumnType<SpaceKind, SpaceKind | undefined, SpaceKind>;
  owner_id: string | null;
  project_id: string | null;
  source: ColumnType<SpaceSource, SpaceSource | undefined, SpaceSource>;
  home_page: string | null;
  created_at: Generated<string>;
}

export interface SpaceGrantsTable {
  id: Generated<string>;
  space_id: string;
  level: GrantLevel;
  member_id: string | null;
  group_id: string | null;
  everyone: Generated<boolean>;
}

export interface PagesTable {
  id: Generated<string>;
  space_id: string;
  slug: string;
  title: string;
  kind: ColumnType<PageKind, PageKind | undefined, PageKind>;
  parent_id: string | null;
  rank: string;
  draft: Generated<boolean>;
  published: Generated<boolean>;
  archived_at: string | null;
  version: Generated<number>;
  labels: ColumnType<string[], string[] | undefined, string[]>;
  body_format: string | null;
  body_text: string | null;
  /** The body's words (the page's `text`), kept when the body is written (migration 0031); NULL: not kept yet. */
  body_words: string | null;
  author_id: string | null;
  editor_id: string | null;
  created_at: Generated<string>;
  edited_at: Generated<string>;
  search_vector: ColumnType<string, never, never>;
}

export interface PageVersionsTable {
  page_id: string;
  version: number;
  title: string;
  body_format: string | null;
  body_text: string | null;
  editor_id: string | null;
  via: string | null;
  message: string | null;
  created_at: Generated<string>;
}

export interface PageRestrictionsTable {
  id: Generated<string>;
  page_id: string;
  kind: 'view' | 'edit';
  member_id: string | null;
  group_id: string | null;
}

export interface PageLinksTable {
  from_page_id: string;
  /** lowercased space key */
  to_space: string;
  /** lowercased slug or title */
  to_ref: string;
}

export interface KnowledgeTables {
  spaces: SpacesTable;
  space_grants: SpaceGrantsTable;
  pages: PagesTable;
  page_versions: PageVersionsTable;
  page_restrictions: PageRestrictionsTable;
  page_links: PageLinksTable;
}

declare module '../../storage/schema.ts' {
  interface DB extends KnowledgeTables {}
}
