import type { Context } from '../../core/context.ts';
import { forbidden } from '../../core/errors.ts';

/**
 * Board administration — creating, changing and deleting a board, its columns and swimlanes —
 * asks what sprint management asks (spec 5.6): an installation administrator, or project:admin in
 * every project the board draws from, with write access. A change must be allowed for the
 * projects before it and after it; a board drawing from every project is an administrator's.
 */
export async function canAdministerBoard(ctx: Context, projectIds: readonly string[] | 'all'): Promise<boolean> {
  return ctx.ability.canWrite && (await memberMayAdminister(ctx, projectIds));
}

/** The member's own permissions, whatever the access of the request: what the board page reads to offer its settings. */
export async function memberMayAdminister(ctx: Context, projectIds: readonly string[] | 'all'): Promise<boolean> {
  if (ctx.ability.isAdmin) return true;
  if (projectIds === 'all' || projectIds.length === 0) return false;
  for (const id of projectIds) {
    if (!(await ctx.ability.memberPermissions(id)).has('project:admin')) return false;
  }
  return true;
}

export async function requireBoardAdministration(ctx: Context, projectIds: readonly string[] | 'all', what: string): Promise<void> {
  if (!(await canAdministerBoard(ctx, projectIds))) {
    throw forbidden(`You may not ${what} (needs installation administrator, or project:admin in every project the board draws from)`);
  }
}
