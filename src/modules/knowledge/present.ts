import { toTimestamp } from '../../core/time.ts';
import type { PageNode } from './repo.ts';
import type { PageSummary } from './schemas.ts';

export function statusOf(page: Pick<PageNode, 'draft' | 'archived_at'>): PageSummary['status'] {
  if (page.archived_at !== null) return 'archived';
  return page.draft ? 'draft' : 'current';
}

export function presentSummary(spaceKey: string, page: PageNode): PageSummary {
  return {
    id: page.id,
    space: spaceKey,
    slug: page.slug,
    title: page.title,
    kind: page.kind,
    status: statusOf(page),
    version: page.version,
    edited_at: toTimestamp(page.edited_at),
  };
}
