import type { Context } from '../../core/context.ts';

/**
 * The member's own activities among `ids`, by what they say they were (deleted ones too: their
 * history says so). For the pages' account of what agents did; another member's are left out.
 */
export async function ownActivitiesNamed(
  ctx: Context,
  ids: readonly string[],
): Promise<Map<string, { description: string | null; deleted: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('activities')
    .select(['id', 'description', 'deleted_at'])
    .where('id', 'in', [...ids])
    .where('member_id', '=', ctx.actor.memberId)
    .execute();
  return new Map(rows.map((row) => [row.id, { description: row.description, deleted: row.deleted_at !== null }]));
}
