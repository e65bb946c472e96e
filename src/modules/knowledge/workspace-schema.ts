import { Type, type Static } from 'typebox';
import { StringEnum } from '../../core/schema-kit.ts';

const Strict = { additionalProperties: false } as const;

const Who = Type.Object(
  {
    everyone: Type.Optional(Type.Boolean({ description: 'every member of the workspace' })),
    members: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'email, username or name' })),
    groups: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  },
  Strict,
);
export type Who = Static<typeof Who>;

export const SeedPage = Type.Object(
  {
    slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,79}$', description: 'unique in the space; the page is created once, by slug' }),
    title: Type.String({ minLength: 1, maxLength: 255 }),
    kind: Type.Optional(StringEnum(['page', 'folder', 'blog_post'])),
    parent: Type.Optional(Type.String({ description: 'slug of a page listed before it' })),
    body: Type.Optional(Type.String({ maxLength: 1_000_000 })),
    format: Type.Optional(
      StringEnum(['markdown', 'imported_wiki', 'html', 'plain', 'imported_storage'], {
        description: 'of the body; markdown when left out',
      }),
    ),
    author: Type.Optional(Type.String({ description: 'a member' })),
    draft: Type.Optional(Type.Boolean()),
    published: Type.Optional(Type.Boolean()),
    labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }))),
    restrictions: Type.Optional(
      Type.Object(
        { view: Type.Optional(Who), edit: Type.Optional(Who) },
        {
          ...Strict,
          description: 'view: only these see it and what is under it; edit: only these change it (the space’s managers always may)',
        },
      ),
    ),
  },
  Strict,
);
export type SeedPage = Static<typeof SeedPage>;

export const SpaceEntry = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,49}$', description: 'upserted by key' }),
    name: Type.String({ minLength: 1, maxLength: 255 }),
    kind: Type.Optional(StringEnum(['global', 'personal'])),
    owner: Type.Optional(Type.String({ description: 'a personal space’s member: manages it' })),
    project: Type.Optional(Type.String({ description: 'project key: its roles’ knowledge:read, :edit, :manage apply' })),
    source: Type.Optional(StringEnum(['native', 'external_wiki', 'git', 'import'])),
    home_page: Type.Optional(Type.String({ description: 'slug' })),
    read: Type.Optional(Who),
    edit: Type.Optional(Who),
    manage: Type.Optional(Who),
    pages: Type.Optional(
      Type.Array(SeedPage, { description: 'seed pages, parents before children; each created once by slug, then left to the API' }),
    ),
  },
  Strict,
);
export type SpaceEntry = Static<typeof SpaceEntry>;

export const SpaceEntries = Type.Array(SpaceEntry, {
  description: 'knowledge-base spaces, upserted by key; spaces left out stay as they are',
});
