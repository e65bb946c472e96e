import type { Context } from '../../../core/context.ts';
import { forbidden } from '../../../core/errors.ts';
import type { Permission } from '../../../policy/permissions.ts';
import type { TicketState } from '../repo.ts';

/**
 * The browser's share of a ticket under spec 5.6, as a table beside the API's (tickets/policy.ts),
 * asked of the same Ability: seeing the ticket (its project and security level) lets a member
 * read its attachments, votes and history, and vote; adding a file is adding to the ticket's
 * conversation, as a comment is; deleting one that somebody else added takes what replacing
 * another's text takes. ADR 0070.
 */
export const EXTRAS_POLICY = {
  attach: { needs: ['ticket:comment'], doing: 'attach files to tickets in project {project}' },
  /** Somebody else's file; the uploader removes their own while they may still attach. */
  remove_any_attachment: { needs: ['ticket:edit'], doing: "delete others' attachments in project {project}" },
} as const satisfies Record<string, { needs: readonly Permission[]; doing: string }>;

export type ExtraAction = keyof typeof EXTRAS_POLICY;

export async function mayDoExtra(ctx: Context, action: ExtraAction, ticket: Pick<TicketState, 'project_id'>): Promise<boolean> {
  const held = await ctx.ability.permissions(ticket.project_id);
  return EXTRAS_POLICY[action].needs.every((p) => held.has(p));
}

/** 403 `forbidden` naming what is missing, unless the member may. */
export async function requireExtra(
  ctx: Context,
  action: ExtraAction,
  ticket: Pick<TicketState, 'project_id' | 'project_key'>,
): Promise<void> {
  if (await mayDoExtra(ctx, action, ticket)) return;
  const rule = EXTRAS_POLICY[action];
  throw forbidden(`You may not ${rule.doing.replace('{project}', ticket.project_key)} (needs ${rule.needs.join(' and ')})`);
}
