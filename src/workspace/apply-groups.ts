import { normalizeName } from '../core/names.ts';
import { requireUnique } from './check-names.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from './context.ts';
import { filePath } from './path.ts';
import type { StoredRow } from './writer.ts';

function check(ctx: CheckContext): void {
  const groups = ctx.file.groups ?? [];
  requireUnique(groups, (g) => g.name, ['groups'], 'group');
  groups.forEach((group, g) => (group.members ?? []).forEach((ref, m) => ctx.people.find(ref, filePath('groups', g, 'members', m))));
  const names = new Map(groups.map((g) => [normalizeName(g.name), g.name]));
  for (const stored of ctx.existing.groups) if (!names.has(normalizeName(stored))) names.set(normalizeName(stored), stored);
  ctx.groups = [...names.values()];
}

/** Groups are upserted by name; a group's `members`, when given, is its whole membership. */
async function apply(ctx: ApplyContext): Promise<void> {
  const stored = await ctx.db.selectFrom('groups').selectAll().execute();
  for (const [g, group] of (ctx.file.groups ?? []).entries()) {
    const existing = stored.find((s) => normalizeName(s.name) === normalizeName(group.name));
    const id = await ctx.writer.save('groups', existing as StoredRow | undefined, { name: group.name.trim() });
    if (group.members === undefined) continue;
    const wanted = new Set(group.members.map((ref, m) => ctx.people.id(ref, filePath('groups', g, 'members', m))));
    const current = new Set(
      (await ctx.db.selectFrom('group_members').select('member_id').where('group_id', '=', id).execute()).map((r) => r.member_id),
    );
    const added = [...wanted].filter((m) => !current.has(m));
    const removed = [...current].filter((m) => !wanted.has(m));
    if (added.length > 0) {
      await ctx.db
        .insertInto('group_members')
        .values(added.map((member_id) => ({ group_id: id, member_id })))
        .execute();
      ctx.writer.log.note('group_members', 'created', added.length);
    }
    if (removed.length > 0) {
      await ctx.db.deleteFrom('group_members').where('group_id', '=', id).where('member_id', 'in', removed).execute();
      ctx.writer.log.note('group_members', 'deleted', removed.length);
    }
  }
  const all = await ctx.db.selectFrom('groups').select(['id', 'name']).execute();
  ctx.groupIds = new Map(all.map((g) => [normalizeName(g.name), g.id]));
}

export const groupsSection: WorkspaceSectionHandler = { name: 'groups', check, apply };
