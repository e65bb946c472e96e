import { normalizeName } from '../core/names.ts';
import type { ApplyContext } from './context.ts';
import { filePath } from './path.ts';
import type { ProjectEntry } from './schema.ts';
import { syncProjectList } from './sync-list.ts';

type Holder = { member_id: string | null; group_id: string | null; role_id?: string | null };
const holderKey = (h: Holder) => `${h.member_id ?? ''}|${h.group_id ?? ''}|${h.role_id ?? ''}`;

/** Makes a set of grant rows exactly `wanted`: missing ones inserted, extra ones deleted, the rest untouched. */
async function syncGrants<T extends Holder>(
  ctx: ApplyContext,
  table: 'security_level_grants' | 'project_roles',
  stored: readonly (Holder & { id: string })[],
  wanted: readonly T[],
  insert: (rows: T[]) => Promise<void>,
): Promise<void> {
  const wantedKeys = new Set(wanted.map(holderKey));
  const storedKeys = new Set(stored.map(holderKey));
  const added = [...new Map(wanted.filter((w) => !storedKeys.has(holderKey(w))).map((w) => [holderKey(w), w])).values()];
  if (added.length > 0) {
    await insert(added);
    ctx.writer.log.note(table, 'created', added.length);
  }
  await ctx.writer.delete(
    table,
    stored.filter((s) => !wantedKeys.has(holderKey(s))).map((s) => s.id),
  );
}

/** Security levels by name; who may see each is stated in full (one grant row per member, group or role). */
export async function applySecurityLevels(ctx: ApplyContext, projectId: string, project: ProjectEntry, p: number): Promise<void> {
  const levels = project.security_levels;
  if (!levels) return;
  const ids = await syncProjectList(
    ctx,
    projectId,
    { table: 'security_levels', what: 'security level', path: filePath('projects', p, 'security_levels'), unlisted: 'delete' },
    levels.map((level) => ({ name: level.name.trim() })),
  );
  for (const [l, level] of levels.entries()) {
    const levelId = ids.get(normalizeName(level.name))!;
    const at = (...parts: (string | number)[]) => filePath('projects', p, 'security_levels', l, ...parts);
    const none: Holder = { member_id: null, group_id: null, role_id: null };
    const wanted: Holder[] = [
      ...(level.members ?? []).map((ref, m) => ({ ...none, member_id: ctx.people.id(ref, at('members', m)) })),
      ...(level.groups ?? []).map((name) => ({ ...none, group_id: ctx.groupIds.get(normalizeName(name))! })),
      ...(level.roles ?? []).map((name) => ({ ...none, role_id: ctx.roleIds.get(normalizeName(name))! })),
    ];
    const stored = await ctx.db.selectFrom('security_level_grants').selectAll().where('level_id', '=', levelId).execute();
    await syncGrants(ctx, 'security_level_grants', stored, wanted, async (rows) => {
      await ctx.db
        .insertInto('security_level_grants')
        .values(rows.map((row) => ({ level_id: levelId, ...row })))
        .execute();
    });
  }
}

/** Who holds which role in the project, stated in full when `roles` is given. */
export async function applyProjectRoles(ctx: ApplyContext, projectId: string, project: ProjectEntry, p: number): Promise<void> {
  if (!project.roles) return;
  const wanted = project.roles.flatMap((grant, r): (Holder & { role_id: string })[] => {
    const roleId = ctx.roleIds.get(normalizeName(grant.role))!;
    return [
      ...(grant.members ?? []).map((ref, m) => ({
        role_id: roleId,
        member_id: ctx.people.id(ref, filePath('projects', p, 'roles', r, 'members', m)),
        group_id: null,
      })),
      ...(grant.groups ?? []).map((name) => ({ role_id: roleId, member_id: null, group_id: ctx.groupIds.get(normalizeName(name))! })),
    ];
  });
  const stored = await ctx.db.selectFrom('project_roles').selectAll().where('project_id', '=', projectId).execute();
  await syncGrants(ctx, 'project_roles', stored, wanted, async (rows) => {
    await ctx.db
      .insertInto('project_roles')
      .values(rows.map((row) => ({ project_id: projectId, ...row })))
      .execute();
  });
}
