import { normalizeName } from '../core/names.ts';
import { requireUnique } from './check-names.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from './context.ts';
import type { StoredRow } from './writer.ts';

function check(ctx: CheckContext): void {
  const roles = ctx.file.roles ?? [];
  requireUnique(roles, (r) => r.name, ['roles'], 'role');
  const names = new Map(roles.map((r) => [normalizeName(r.name), r.name]));
  for (const stored of ctx.existing.roles) if (!names.has(normalizeName(stored))) names.set(normalizeName(stored), stored);
  ctx.roles = [...names.values()];
}

/** Roles are upserted by name; `permissions` is the role's whole grant. */
async function apply(ctx: ApplyContext): Promise<void> {
  const stored = await ctx.db.selectFrom('roles').selectAll().execute();
  for (const role of ctx.file.roles ?? []) {
    const existing = stored.find((s) => normalizeName(s.name) === normalizeName(role.name));
    await ctx.writer.save('roles', existing as StoredRow | undefined, {
      name: role.name.trim(),
      permissions: [...new Set(role.permissions)],
    });
  }
  const all = await ctx.db.selectFrom('roles').select(['id', 'name']).execute();
  ctx.roleIds = new Map(all.map((r) => [normalizeName(r.name), r.id]));
}

export const rolesSection: WorkspaceSectionHandler = { name: 'roles', check, apply };
