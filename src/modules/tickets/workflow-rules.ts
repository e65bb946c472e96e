import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { isPermission } from '../../policy/permissions.ts';
import { memberRoleIds } from './policy.ts';
import type { Workflow, WorkflowStatus, WorkflowTransition } from './project-config.ts';
import type { TicketState } from './repo.ts';

/** Transition conditions as the workspace stores them (a role by its id). */
type Condition = { permission: string } | { role_id: string } | { assignee_only: true };

export interface Validator {
  require_fields: string[];
  message?: string;
}

export interface Screen {
  resolution?: boolean;
  assignee?: boolean;
  fields?: string[];
}

export const screenOf = (t: WorkflowTransition) => t.screen as Screen;
export const validatorsOf = (t: WorkflowTransition) => t.validators as Validator[];

export function statusById(workflow: Workflow, id: string): WorkflowStatus {
  const status = workflow.statuses.find((s) => s.id === id);
  if (!status) throw new Error(`status ${id} is not in the workflow`);
  return status;
}

async function conditionsHold(
  ctx: Context,
  ticket: TicketState,
  transition: WorkflowTransition,
  roles: () => Promise<ReadonlySet<string>>,
): Promise<boolean> {
  for (const condition of transition.conditions as Condition[]) {
    if ('permission' in condition) {
      if (!isPermission(condition.permission) || !(await ctx.ability.can(condition.permission, ticket.project_id))) return false;
    } else if ('role_id' in condition) {
      if (!ctx.ability.isAdmin && !(await roles()).has(condition.role_id)) return false;
    } else if ('assignee_only' in condition) {
      if (ticket.assignee_id !== ctx.actor.memberId) return false;
    }
  }
  return true;
}

/**
 * The transitions the member can take now (spec 3.2): ticket:transition, from the current status,
 * and every condition of the workflow holding. Empty if the member may not move the ticket.
 */
export async function availableTransitions(
  ctx: Context,
  ticket: TicketState,
  workflow: Workflow,
  /** The member's roles in the ticket's project when the caller read them already (else read on demand). */
  knownRoleIds?: ReadonlySet<string>,
): Promise<WorkflowTransition[]> {
  if (!(await ctx.ability.can('ticket:transition', ticket.project_id))) return [];
  let roles: Promise<ReadonlySet<string>> | null = knownRoleIds ? Promise.resolve(knownRoleIds) : null;
  const loadRoles = () => (roles ??= memberRoleIds(ctx, ticket.project_id));
  const available: WorkflowTransition[] = [];
  for (const transition of workflow.transitions) {
    const from = transition.from_status_ids;
    if (from === null ? transition.to_status_id === ticket.status_id : !from.includes(ticket.status_id)) continue;
    if (await conditionsHold(ctx, ticket, transition, loadRoles)) available.push(transition);
  }
  return available;
}

/** Which ticket fields and custom fields have a value now, for validators (names as in workspace/ticket-fields.ts). */
export async function filledFields(ctx: Context, ticketId: string): Promise<Set<string>> {
  const result = await sql<{ filled: string[] }>`
    select array_remove(array[
      'summary',
      case when t.description_text is not null and t.description_text <> '' then 'description' end,
      case when t.environment_text is not null and t.environment_text <> '' then 'environment' end,
      case when t.assignee_id is not null then 'assignee' end,
      case when t.priority_id is not null then 'priority' end,
      case when t.resolution_id is not null then 'resolution' end,
      case when t.due_date is not null then 'due_date' end,
      case when t.security_level_id is not null then 'security_level' end,
      case when t.parent_id is not null then 'parent' end,
      case when t.original_estimate_seconds is not null then 'original_estimate' end,
      case when t.remaining_estimate_seconds is not null then 'remaining_estimate' end,
      case when exists (select 1 from ticket_components c where c.ticket_id = t.id) then 'components' end,
      case when cardinality(t.label_names) > 0 then 'labels' end,
      case when exists (select 1 from ticket_versions v where v.ticket_id = t.id and v.kind = 'fix') then 'fix_versions' end,
      case when exists (select 1 from ticket_versions v where v.ticket_id = t.id and v.kind = 'affected') then 'affected_versions' end
    ], null) || coalesce((select array_agg(lower(cf.key)) from ticket_field_values fv
                          join custom_fields cf on cf.id = fv.field_id where fv.ticket_id = t.id), '{}') as filled
    from tickets t where t.id = ${ticketId}
  `.execute(ctx.db);
  return new Set(result.rows[0]?.filled ?? []);
}

/** The reason of the first validator that refuses, or null when every one passes. */
export function refusal(transition: WorkflowTransition, filled: ReadonlySet<string>): string | null {
  for (const validator of validatorsOf(transition)) {
    const missing = validator.require_fields.filter((f) => !filled.has(f.toLowerCase()));
    if (missing.length) {
      return validator.message ?? `${transition.name} needs ${missing.join(', ')} to have a value`;
    }
  }
  return null;
}
