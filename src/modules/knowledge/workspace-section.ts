import { normalizeKey, normalizeName } from '../../core/names.ts';
import { rankAfter } from '../../core/rank.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from '../../workspace/context.ts';
import { fail, filePath } from '../../workspace/path.ts';
import type { StoredRow } from '../../workspace/writer.ts';
import { insertPage } from './new-page.ts';
import type { GrantLevel } from './tables.ts';
import { SpaceEntries, type SeedPage, type SpaceEntry, type Who } from './workspace-schema.ts';

declare module '../../workspace/schema.ts' {
  interface WorkspaceFileExtensions {
    spaces?: SpaceEntry[];
  }
}

const LEVELS: readonly GrantLevel[] = ['read', 'edit', 'manage'];

function checkWho(ctx: CheckContext, who: Who | undefined, path: string): void {
  who?.members?.forEach((m, i) => ctx.people.find(m, `${path}.members[${i}]`));
  who?.groups?.forEach((g, i) => {
    if (!ctx.groups.some((name) => normalizeName(name) === normalizeName(g))) fail(`${path}.groups[${i}]`, `no group "${g}"`);
  });
}

function check(ctx: CheckContext): void {
  const projects = new Set([
    ...(ctx.file.projects ?? []).map((p) => normalizeKey(p.key)),
    ...[...ctx.existing.projects.keys()].map(normalizeKey),
  ]);
  const keys = new Map<string, number>();
  (ctx.file.spaces ?? []).forEach((space, s) => {
    const at = (...parts: (string | number)[]) => filePath('spaces', s, ...parts);
    const key = normalizeKey(space.key);
    if (keys.has(key)) fail(at('key'), `space "${space.key}" is declared twice (also spaces[${keys.get(key)}])`);
    keys.set(key, s);
    if (space.project && !projects.has(normalizeKey(space.project))) fail(at('project'), `no project "${space.project}"`);
    if (space.kind === 'personal' && !space.owner) fail(at('owner'), 'a personal space needs its owner');
    if (space.owner) ctx.people.find(space.owner, at('owner'));
    for (const level of LEVELS) checkWho(ctx, space[level], at(level));
    const slugs = new Set<string>();
    (space.pages ?? []).forEach((page, p) => {
      if (slugs.has(page.slug)) fail(at('pages', p, 'slug'), `page "${page.slug}" is listed twice`);
      if (page.parent !== undefined && !slugs.has(page.parent)) fail(at('pages', p, 'parent'), `no page "${page.parent}" listed before it`);
      if (page.kind === 'folder' && page.body) fail(at('pages', p, 'body'), 'a folder has no body');
      if (page.kind === 'blog_post' && page.parent) fail(at('pages', p, 'parent'), 'a blog post has no place in the tree');
      if (page.author) ctx.people.find(page.author, at('pages', p, 'author'));
      checkWho(ctx, page.restrictions?.view, at('pages', p, 'restrictions', 'view'));
      checkWho(ctx, page.restrictions?.edit, at('pages', p, 'restrictions', 'edit'));
      slugs.add(page.slug);
    });
    if (space.home_page && !slugs.has(space.home_page) && (space.pages ?? []).length > 0)
      fail(at('home_page'), `no page "${space.home_page}" in the space`);
  });
}

interface GrantRow {
  level: string;
  member_id: string | null;
  group_id: string | null;
  everyone: boolean;
}

function grantsOf(ctx: ApplyContext, who: Who | undefined, path: string): Omit<GrantRow, 'level'>[] {
  if (!who) return [];
  return [
    ...(who.everyone ? [{ member_id: null, group_id: null, everyone: true }] : []),
    ...(who.members ?? []).map((m, i) => ({ member_id: ctx.people.id(m, `${path}.members[${i}]`), group_id: null, everyone: false })),
    ...(who.groups ?? []).map((g) => ({ member_id: null, group_id: ctx.groupIds.get(normalizeName(g))!, everyone: false })),
  ];
}

const sortedText = (rows: readonly GrantRow[]) =>
  JSON.stringify(rows.map((r) => [r.level, r.member_id, r.group_id, r.everyone].join('|')).sort());

/** Grants and restrictions follow the file: rewritten when they differ, untouched when the same. */
async function applyGrants(ctx: ApplyContext, spaceId: string, space: SpaceEntry, s: number): Promise<void> {
  const wanted: GrantRow[] = LEVELS.flatMap((level) =>
    grantsOf(ctx, space[level], filePath('spaces', s, level)).map((g) => ({ level, ...g })),
  );
  const stored = await ctx.db
    .selectFrom('space_grants')
    .select(['level', 'member_id', 'group_id', 'everyone'])
    .where('space_id', '=', spaceId)
    .execute();
  if (sortedText(wanted) === sortedText(stored)) return;
  await ctx.db.deleteFrom('space_grants').where('space_id', '=', spaceId).execute();
  if (wanted.length)
    await ctx.db
      .insertInto('space_grants')
      .values(wanted.map((g) => ({ ...g, space_id: spaceId, level: g.level as GrantLevel })))
      .execute();
  ctx.writer.log.note('space_grants', 'updated');
}

async function seedPage(
  ctx: ApplyContext,
  spaceId: string,
  spaceKey: string,
  page: SeedPage,
  parents: Map<string, string>,
  path: string,
): Promise<void> {
  const existing = await ctx.db
    .selectFrom('pages')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('slug', '=', page.slug)
    .executeTakeFirst();
  if (existing) {
    parents.set(page.slug, existing.id);
    return;
  }
  const parentId = page.parent ? parents.get(page.parent)! : null;
  const siblings = await ctx.db
    .selectFrom('pages')
    .select('rank')
    .where('space_id', '=', spaceId)
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .execute();
  const author = page.author ? ctx.people.id(page.author, `${path}.author`) : null;
  const content = {
    title: page.title.trim(),
    body_format: page.body === undefined ? null : (page.format ?? 'markdown'),
    body_text: page.body ?? null,
  };
  const id = await insertPage(ctx.db, {
    spaceId,
    spaceKey,
    slug: page.slug,
    content,
    kind: page.kind ?? 'page',
    parentId,
    rank: rankAfter(siblings.map((r) => r.rank)),
    draft: page.draft ?? false,
    published: page.published ?? false,
    labels: page.labels ?? [],
    authorId: author,
    via: 'workspace file',
    message: null,
  });
  for (const kind of ['view', 'edit'] as const) {
    const rows = grantsOf(ctx, page.restrictions?.[kind], `${path}.restrictions.${kind}`).filter((g) => !g.everyone);
    if (rows.length)
      await ctx.db
        .insertInto('page_restrictions')
        .values(rows.map((r) => ({ page_id: id, kind, member_id: r.member_id, group_id: r.group_id })))
        .execute();
  }
  parents.set(page.slug, id);
  ctx.writer.log.note('pages', 'created');
}

async function apply(ctx: ApplyContext): Promise<void> {
  const projects = await ctx.db.selectFrom('projects').select(['id', 'key']).execute();
  for (const [s, space] of (ctx.file.spaces ?? []).entries()) {
    const stored = await ctx.db.selectFrom('spaces').selectAll().where('key', '=', space.key).executeTakeFirst();
    const id = await ctx.writer.save('spaces', stored as StoredRow | undefined, {
      key: space.key,
      name: space.name.trim(),
      kind: space.kind ?? 'global',
      owner_id: space.owner ? ctx.people.id(space.owner, filePath('spaces', s, 'owner')) : null,
      project_id: space.project ? projects.find((p) => normalizeKey(p.key) === normalizeKey(space.project!))!.id : null,
      source: space.source ?? 'native',
      home_page: space.home_page ?? null,
    });
    await applyGrants(ctx, id, space, s);
    const parents = new Map<string, string>();
    for (const [p, page] of (space.pages ?? []).entries())
      await seedPage(ctx, id, space.key, page, parents, filePath('spaces', s, 'pages', p));
  }
}

/** `spaces`: knowledge-base spaces with who may read, edit and manage them, and seed pages; after projects and groups. */
export const spacesSection: WorkspaceSectionHandler = { name: 'spaces', fileKeys: { spaces: SpaceEntries }, check, apply };
