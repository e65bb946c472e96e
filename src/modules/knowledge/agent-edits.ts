import type { Context } from '../../core/context.ts';
import { ApiError } from '../../core/errors.ts';
import { openSpaceAt, visiblePage } from './space-view.ts';

export interface AgentEdit {
  at: string;
  /** The token or application that made the edit. */
  via: string;
  /** The page's version the edit made: 1 is its creation. */
  version: number;
  /** The page, when the member may still see it; null keeps its title to itself. */
  page: { space: string; slug: string; title: string } | null;
}

/**
 * The member's edits of knowledge pages made through agents (page versions written with a token),
 * newest first: for the pages' account of what agents did. A page the member may no longer see
 * (a restriction, a space closed to them) is named by nothing.
 */
export async function agentEdits(ctx: Context, limit: number): Promise<AgentEdit[]> {
  const rows = await ctx.db
    .selectFrom('page_versions as v')
    .innerJoin('pages as p', 'p.id', 'v.page_id')
    .innerJoin('spaces as s', 's.id', 'p.space_id')
    .select(['v.page_id', 'v.version', 'v.created_at', 'v.via', 's.key as space'])
    .where('v.editor_id', '=', ctx.actor.memberId)
    .where('v.via', 'is not', null)
    .orderBy('v.created_at', 'desc')
    .limit(limit)
    .execute();
  const pages = new Map<string, AgentEdit['page']>();
  for (const row of rows) {
    if (pages.has(row.page_id)) continue;
    try {
      const view = await openSpaceAt(ctx, row.space, [row.page_id]);
      const node = visiblePage(ctx, view, row.page_id);
      pages.set(row.page_id, { space: view.space.key, slug: node.slug, title: node.title });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      pages.set(row.page_id, null);
    }
  }
  return rows.map((row) => ({ at: row.created_at, via: row.via!, version: row.version, page: pages.get(row.page_id) ?? null }));
}
