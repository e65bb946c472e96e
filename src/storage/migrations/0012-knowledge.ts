import { sql, type Kysely } from 'kysely';

// The knowledge base (spec 2.7, 3.5, 4.5): spaces declared in the workspace file with who may
// read, edit and manage them; pages in a tree (ranked siblings), every change a new version;
// restrictions per page; links between pages for backlinks; full-text search.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table spaces (
      id uuid primary key default gen_random_uuid(),
      key text not null unique,
      name text not null,
      kind text not null default 'global' check (kind in ('global', 'personal')),
      owner_id uuid references members(id),
      project_id uuid references projects(id),
      source text not null default 'native' check (source in ('native', 'external_wiki', 'git', 'import')),
      home_page text,
      created_at timestamptz not null default now()
    );

    -- who may read, edit or manage a space beyond its project's roles: members, groups, or everyone
    create table space_grants (
      id uuid primary key default gen_random_uuid(),
      space_id uuid not null references spaces(id) on delete cascade,
      level text not null check (level in ('read', 'edit', 'manage')),
      member_id uuid references members(id) on delete cascade,
      group_id uuid references groups(id) on delete cascade,
      everyone boolean not null default false
    );
    create index space_grants_space_idx on space_grants (space_id);

    create table pages (
      id uuid primary key default gen_random_uuid(),
      space_id uuid not null references spaces(id),
      slug text not null,
      title text not null,
      kind text not null default 'page' check (kind in ('page', 'folder', 'blog_post')),
      parent_id uuid references pages(id),
      rank text not null,
      draft boolean not null default false,
      published boolean not null default false,
      archived_at timestamptz,
      version integer not null default 1,
      labels text[] not null default '{}',
      body_format text,
      body_text text,
      author_id uuid references members(id),
      editor_id uuid references members(id),
      created_at timestamptz not null default now(),
      edited_at timestamptz not null default now(),
      search_vector tsvector generated always as (
        setweight(to_tsvector('simple'::regconfig, search_words(title)), 'A')
        || setweight(to_tsvector('simple'::regconfig, search_words(coalesce(body_text, ''))), 'B')
      ) stored
    );
    create unique index pages_slug_idx on pages (space_id, lower(slug));
    create index pages_parent_idx on pages (space_id, parent_id, rank);
    create index pages_search_idx on pages using gin (search_vector);

    create table page_versions (
      page_id uuid not null references pages(id),
      version integer not null,
      title text not null,
      body_format text,
      body_text text,
      editor_id uuid references members(id),
      via text,
      message text,
      created_at timestamptz not null default now(),
      primary key (page_id, version)
    );

    -- view: only these may see the page (and the pages under it); edit: only these may change it
    create table page_restrictions (
      id uuid primary key default gen_random_uuid(),
      page_id uuid not null references pages(id) on delete cascade,
      kind text not null check (kind in ('view', 'edit')),
      member_id uuid references members(id) on delete cascade,
      group_id uuid references groups(id) on delete cascade
    );
    create index page_restrictions_page_idx on page_restrictions (page_id);

    -- what a page links to, as written (space key, and slug or title): a link to a page made
    -- later, or renamed back, resolves when read
    create table page_links (
      from_page_id uuid not null references pages(id) on delete cascade,
      to_space text not null,
      to_ref text not null,
      primary key (from_page_id, to_space, to_ref)
    );
    create index page_links_to_idx on page_links (to_space, to_ref);
  `.execute(db);
}
