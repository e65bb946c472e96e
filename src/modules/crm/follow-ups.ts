import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { recordHistory } from '../../core/history.ts';
import { cancelReminders } from '../../core/notifications.ts';
import { interactionVisibleSql, loadInteraction } from './interactions.ts';
import { markDone, openFollowUps } from './interactions-repo.ts';
import { crmAccess, isOpen, requireCrm } from './policy.ts';
import { presentInteraction } from './present.ts';
import type { FollowUpList, Interaction } from './schemas.ts';

/**
 * Follow-ups (spec 3.7): interactions of kind task, open until completed. Completed by the
 * assignee, the author, or whoever manages the CRM for its company; completing drops the
 * reminder that has not fired yet.
 */

/** POST /interactions/{id}/complete: done_at set to now; a follow-up already done is answered as it is. */
export async function completeFollowUp(ctx: Context, id: string): Promise<Interaction> {
  const access = await crmAccess(ctx);
  const row = await loadInteraction(ctx, access, id, true);
  if (row.kind !== 'task') throw invalid('/id', `only a follow-up (an interaction of kind task) is completed; this one is a ${row.kind}`);
  const own = row.assignee_id === ctx.actor.memberId || row.author_id === ctx.actor.memberId;
  if (!own)
    await requireCrm(
      ctx,
      'manage',
      row.company_id ? { id: row.company_id, name: row.company_name ?? '' } : null,
      'complete follow-ups of others',
    );
  if (row.done_at !== null) return presentInteraction(row, ctx.publicUrl);

  const now = ctx.now();
  await markDone(ctx.db, row.id, now);
  await cancelReminders(ctx.db, 'interaction', row.id);
  await recordHistory(ctx, {
    entityType: 'interaction',
    entityId: row.id,
    kind: 'completed',
    changes: [{ field: 'done_at', from: null, to: now.toISOString() }],
  });
  return presentInteraction(await loadInteraction(ctx, access, row.id), ctx.publicUrl);
}

/** GET /follow-ups: the member's open follow-ups they may see; empty for a member the CRM is closed to. */
export async function listFollowUps(ctx: Context): Promise<FollowUpList> {
  const access = await crmAccess(ctx);
  if (!isOpen(access)) return { follow_ups: [] };
  const rows = await openFollowUps(ctx.db, ctx.actor.memberId, await interactionVisibleSql(ctx, access));
  return { follow_ups: rows.map((row) => presentInteraction(row, ctx.publicUrl)) };
}
