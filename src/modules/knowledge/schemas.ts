import { Type, type Static } from 'typebox';
import { Nullable, shared, StringEnum, Timestamp, Uuid } from '../../core/schema-kit.ts';
import { Person, RichText } from '../../core/shapes.ts';

export const PAGE_KINDS = ['page', 'folder', 'blog_post'] as const;
export const PAGE_STATUSES = ['current', 'draft', 'archived', 'trashed'] as const;

export const Space = shared(
  'Space',
  Type.Object({
    key: Type.String(),
    name: Type.String(),
    kind: StringEnum(['global', 'personal']),
    project: Nullable(Type.String({ description: 'project key' })),
    source: StringEnum(['native', 'external_wiki', 'git', 'import'], {
      description: '`git`: kept in a repository; only `published` may be changed here',
    }),
    home_page: Nullable(Type.String({ description: 'slug' })),
    can_edit: Type.Boolean({ description: 'you may write pages here (knowledge:edit, with a write token)' }),
    can_manage: Type.Boolean({ description: 'you manage the space (knowledge:manage): drafts of others, the trash' }),
  }),
);
export type Space = Static<typeof Space>;

export const SpaceList = shared('SpaceList', Type.Object({ spaces: Type.Array(Space, { description: 'by key' }) }));
export type SpaceList = Static<typeof SpaceList>;

export const PageSummary = shared(
  'PageSummary',
  Type.Object({
    id: Uuid,
    space: Type.String({ description: 'space key' }),
    slug: Type.String(),
    title: Type.String(),
    kind: StringEnum(PAGE_KINDS),
    status: StringEnum(PAGE_STATUSES, {
      description: "`current` (in the space), `draft` (its author and the space's managers only), `archived` (deleted: in the trash)",
    }),
    version: Type.Integer(),
    edited_at: Timestamp,
    archived: Type.Optional(Type.Boolean({ description: 'in answer to a delete' })),
    passage: Type.Optional(Type.String({ description: 'in search results: where the words were found' })),
  }),
);
export type PageSummary = Static<typeof PageSummary>;

export const Page = shared(
  'Page',
  Type.Object({
    ...PageSummary.properties,
    created_at: Timestamp,
    body: Nullable(RichText),
    text: Type.String({ description: 'the words whatever the format' }),
    published: Type.Boolean({ description: 'customers may read it where the space allows' }),
    author: Nullable(Person),
    editor: Nullable(Person),
    parent: Nullable(Type.String({ description: 'slug of the nearest page above it that you may read' })),
    path: Type.Array(Type.String(), { description: 'titles above it that you may read, top first' }),
    labels: Type.Array(Type.String()),
    backlinks: Type.Array(PageSummary, { description: 'pages you can see that link here' }),
    tickets: Type.Array(Type.Object({ key: Type.String(), summary: Type.String() }), { description: 'tickets mentioned that you may see' }),
  }),
);
export type Page = Static<typeof Page>;

export const PageTree = shared(
  'PageTree',
  Type.Object({
    space: Type.String(),
    pages: Type.Array(
      Type.Object({
        id: Uuid,
        slug: Type.String(),
        title: Type.String(),
        kind: StringEnum(['page', 'folder']),
        parent: Nullable(Type.String()),
        depth: Type.Integer({ minimum: 0 }),
      }),
      { description: 'in tree order; no drafts, blog posts or deleted pages (pages under a draft take its place)' },
    ),
  }),
);
export type PageTree = Static<typeof PageTree>;

export const SearchResult = shared(
  'PageSearchResult',
  Type.Object({ pages: Type.Array(PageSummary, { description: 'best first, each with its passage' }) }),
);
export type SearchResult = Static<typeof SearchResult>;

const SpaceKey = Type.String({ minLength: 1, maxLength: 100, description: 'space key' });
const PageRef = Type.String({ minLength: 1, maxLength: 255, description: 'slug or id' });

export const SpaceParams = Type.Object({ space: SpaceKey });
export const PageParams = Type.Object({ space: SpaceKey, page: PageRef });
/** A page in the trash, by id: its slug may name it nowhere else, but the trash lists pages by id. */
export const TrashedPageParams = Type.Object({
  space: SpaceKey,
  page: Type.String({ format: 'uuid', description: 'the deleted page’s id' }),
});

export const SearchQuery = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 500, description: 'words, all required (each also as a beginning)' }),
  space: Type.Optional(SpaceKey),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

const Body = Type.String({ maxLength: 1_000_000, description: 'Markdown' });
const Title = Type.String({ minLength: 1, maxLength: 255 });
const Message = Type.String({ maxLength: 500, description: 'what changed, kept with the version' });

export const CreatePageBody = Type.Object({
  title: Title,
  body: Type.Optional(Body),
  kind: Type.Optional(StringEnum(PAGE_KINDS, { default: 'page', description: '`folder` has no body; `blog_post` is outside the tree' })),
  parent: Type.Optional(Nullable(PageRef)),
  draft: Type.Optional(Type.Boolean({ description: "seen only by you and the space's managers until published" })),
  published: Type.Optional(Type.Boolean({ description: 'customers may read it where the space allows' })),
  message: Type.Optional(Message),
});
export type CreatePageBody = Static<typeof CreatePageBody>;

export const UpdatePageBody = Type.Object({
  title: Type.Optional(Title),
  body: Type.Optional(Body),
  published: Type.Optional(Type.Boolean()),
  draft: Type.Optional(Type.Boolean({ description: '`false` publishes a draft' })),
  message: Type.Optional(Message),
  version: Type.Optional(Type.Integer({ minimum: 1, description: 'the version you edited: 409 `stale` when someone saved since' })),
});
export type UpdatePageBody = Static<typeof UpdatePageBody>;

export const MovePageBody = Type.Object({
  parent: Type.Optional(Nullable(PageRef)),
  before: Type.Optional(PageRef),
  after: Type.Optional(PageRef),
});
export type MovePageBody = Static<typeof MovePageBody>;
