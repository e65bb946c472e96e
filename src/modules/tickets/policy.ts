import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { forbidden } from '../../core/errors.ts';
import { memberRolesSql } from '../../policy/ability.ts';
import type { Permission } from '../../policy/permissions.ts';

/**
 * Spec 5.6 for tickets, as a table: what each action on a ticket needs in the ticket's project.
 * A read token holds project:view alone (policy/permissions.ts), so it passes none of these.
 * Seeing a ticket is decided in SQL, and for one ticket read by key by the same rule in the
 * process (visibility.ts).
 */
export const TICKET_POLICY = {
  create: { needs: ['ticket:create'], doing: 'create tickets in project {project}' },
  /** PATCH /tickets/{key}; `editOwn`: ticket:edit_own stands in for ticket:edit on a ticket the member reported. */
  edit: { needs: ['ticket:edit'], editOwn: true, doing: 'edit {key}' },
  transition: { needs: ['ticket:transition'], doing: 'move tickets through the workflow in project {project}' },
  assign: { needs: ['ticket:assign'], doing: 'assign tickets in project {project}' },
  comment: { needs: ['ticket:comment'], doing: 'comment on tickets in project {project}' },
  log_work: { needs: ['ticket:comment', 'time:log'], doing: 'log work in project {project}' },
  /** A board reorder within a column, and backlog moves (spec 5.6: ticket:edit). */
  rank: { needs: ['ticket:edit'], doing: 'rank {key} in project {project}' },
} as const satisfies Record<string, { needs: readonly Permission[]; editOwn?: boolean; doing: string }>;

export type TicketAction = keyof typeof TICKET_POLICY;

/** The ticket (or project, for create) an action is asked on. */
export interface PolicyTarget {
  key?: string;
  project_id: string;
  project_key: string;
  reporter_id?: string | null;
}

/** Whether the request holds what the action needs (the member's roles cut down by the token). */
export async function mayDo(ctx: Context, action: TicketAction, target: PolicyTarget): Promise<boolean> {
  const rule: { needs: readonly Permission[]; editOwn?: boolean } = TICKET_POLICY[action];
  const held = await ctx.ability.permissions(target.project_id);
  if (rule.needs.every((p) => held.has(p))) return true;
  return rule.editOwn === true && target.reporter_id === ctx.actor.memberId && held.has('ticket:edit_own');
}

/**
 * A helpdesk internal note (spec 2.4, Comment: `internal`, never shown to customers) is the
 * helpdesk agents' own: whoever may comment on a ticket of a helpdesk project. Elsewhere a comment
 * has no customers to be hidden from, and the pages do not offer the choice.
 */
export async function mayWriteInternalNote(ctx: Context, target: PolicyTarget & { project_kind: string }): Promise<boolean> {
  return target.project_kind === 'helpdesk' && (await mayDo(ctx, 'comment', target));
}

/** 403 `forbidden` naming what is missing, unless the request may do the action. */
export async function requireTicketAction(ctx: Context, action: TicketAction, target: PolicyTarget): Promise<void> {
  if (await mayDo(ctx, action, target)) return;
  const rule: { needs: readonly Permission[]; editOwn?: boolean; doing: string } = TICKET_POLICY[action];
  const needs = rule.needs.join(' and ') + (rule.editOwn ? ', or ticket:edit_own on a ticket you reported' : '');
  const what = rule.doing.replace('{key}', target.key ?? '').replace('{project}', target.project_key);
  throw forbidden(`You may not ${what} (needs ${needs})`);
}

/** Ids of the roles the member holds in a project, directly or through a group (transition conditions). */
export async function memberRoleIds(ctx: Context, projectId: string): Promise<Set<string>> {
  const rows = await sql<{ role_id: string }>`${memberRolesSql(ctx.actor.memberId, projectId)}`.execute(ctx.db);
  return new Set(rows.rows.map((r) => r.role_id));
}
