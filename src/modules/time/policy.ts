import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { forbidden, notFound } from '../../core/errors.ts';
import type { RecordVisibility } from '../../core/visibility.ts';
import { memberIsAdminSql, projectsHeldSql } from '../../policy/ability.ts';
import type { Permission } from '../../policy/permissions.ts';

/**
 * Who may do what with time (spec 5.6 leaves it to us; ADR 0029), as a table. An
 * activity is its author's own: anyone tracks their own time, and only its author changes it.
 * Linking it to a project (or a ticket of one) needs time:log there; reading another member's
 * activities needs time:view_all in the activity's project; rates and amounts need time:billing.
 */
export const TIME_POLICY = {
  log_in_project: { needs: 'time:log', doing: 'log time in project {project}' },
  view_others: { needs: 'time:view_all', doing: "see other members' time in project {project}" },
  see_billing: { needs: 'time:billing', doing: 'see billing in project {project}' },
} as const satisfies Record<string, { needs: Permission; doing: string }>;

export type TimeAction = keyof typeof TIME_POLICY;

/** Refuses (403, naming the permission) a link to a project where the member may not log time. */
export async function requireLogIn(ctx: Context, project: { id: string; key: string }): Promise<void> {
  const rule = TIME_POLICY.log_in_project;
  if (!(await ctx.ability.can(rule.needs, project.id))) {
    throw forbidden(`You may not ${rule.doing.replace('{project}', project.key)}: it needs ${rule.needs}`);
  }
}

/** What the member may see of others' activities: every project (null), or these. */
export function othersVisibleIn(ctx: Context): Promise<Set<string> | null> {
  return ctx.ability.projectsWith(TIME_POLICY.view_others.needs);
}

/** Projects whose billing the member may see (null: all); a phase with no project shows its rate to anyone who may see billing somewhere. */
export async function billingScope(ctx: Context): Promise<{ projects: Set<string> | null; any: boolean }> {
  const projects = await ctx.ability.projectsWith(TIME_POLICY.see_billing.needs);
  return { projects, any: projects === null || projects.size > 0 };
}

export function maySeeBilling(scope: { projects: Set<string> | null; any: boolean }, projectId: string | null): boolean {
  if (projectId === null) return scope.any;
  return scope.projects === null || scope.projects.has(projectId);
}

/**
 * The phases the member may see (GET /phases, and every phase a request names): those of a
 * project they can see, and those of no project (a customer's).
 */
export async function phaseVisibility(ctx: Context): Promise<(phase: { project_id: string | null }) => boolean> {
  const visible = await ctx.ability.visibleProjectIds();
  return (phase) => visible === null || phase.project_id === null || visible.has(phase.project_id);
}

/** An activity as the member may see it: their own, or another's in a project where they hold time:view_all; else 404. */
export function refuseUnseenActivity(
  ctx: Context,
  activity: { member_id: string; project_id: string | null } | undefined,
  others: Set<string> | null,
  id: string,
): asserts activity {
  if (!activity) throw notFound(`Activity ${id}`);
  if (activity.member_id === ctx.actor.memberId) return;
  if (others === null) return;
  if (activity.project_id !== null && others.has(activity.project_id)) return;
  throw notFound(`Activity ${id}`);
}

/** refuseUnseenActivity's rule as SQL, for whoever an activity is carried to (the page of what an agent did). */
export const activityVisibility: RecordVisibility = (member, record) =>
  sql<boolean>`exists (select 1 from activities vis_a
    where vis_a.id = ${record} and (vis_a.member_id = ${member} or ${memberIsAdminSql(member)}
      or vis_a.project_id in (${projectsHeldSql(member, TIME_POLICY.view_others.needs)})))`;

/** Only the author changes an activity; one in a closed billing phase is locked. */
export function requireChangeable(ctx: Context, activity: { member_id: string; locked: boolean }, what: string): void {
  if (activity.member_id !== ctx.actor.memberId) throw forbidden(`Only the member who logged an activity may ${what} it`);
  if (activity.locked)
    throw forbidden(
      `This activity is locked: it falls in a closed billing phase, so it can no longer be ${what === 'stop' ? 'stopped' : `${what}d`}`,
    );
}
