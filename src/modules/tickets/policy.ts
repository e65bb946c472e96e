import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { forbidden, notFound } from '../../core/errors.ts';
import type { Permission } from '../../policy/permissions.ts';

/**
 * Who may see and change which ticket (spec 5.6, 7). Built on the request's Ability; the search
 * applies the same rules in SQL through visibleTicketSql and readableRestrictedCommentSql.
 */

export interface TicketVisibility {
  memberId: string;
  isAdmin: boolean;
  /** Projects the member may see; null = all (administrators). */
  projectIds: Set<string> | null;
  /** Security levels the member is granted, by member, group or role in the level's project. */
  levelIds: Set<string>;
}

export interface GuardedTicket {
  key: string;
  project_id: string;
  security_level_id: string | null;
  reporter_id: string | null;
  assignee_id: string | null;
}

const cache = new WeakMap<Context['ability'], Promise<TicketVisibility>>();

/**
 * SQL: ids of the security levels granted to a member — by member, by group, or by a role they
 * hold (directly or through a group) in the level's project.
 */
export function grantedLevelsSql(memberId: string): RawBuilder<{ level_id: string }> {
  return sql<{ level_id: string }>`
    select g.level_id
    from security_level_grants g
    join security_levels l on l.id = g.level_id
    where g.member_id = ${memberId}
       or g.group_id in (select group_id from group_members where member_id = ${memberId})
       or exists (
         select 1 from project_roles pr
         where pr.project_id = l.project_id and pr.role_id = g.role_id
           and (pr.member_id = ${memberId}
                or pr.group_id in (select group_id from group_members where member_id = ${memberId})))`;
}

async function loadVisibility(ctx: Context): Promise<TicketVisibility> {
  const memberId = ctx.actor.memberId;
  const projectIds = await ctx.ability.visibleProjectIds();
  if (ctx.ability.isAdmin) return { memberId, isAdmin: true, projectIds, levelIds: new Set() };
  const rows = await sql<{ level_id: string }>`${grantedLevelsSql(memberId)}`.execute(ctx.db);
  return { memberId, isAdmin: false, projectIds, levelIds: new Set(rows.rows.map((r) => r.level_id)) };
}

/** The member's visibility, read once per request. */
export function ticketVisibility(ctx: Context): Promise<TicketVisibility> {
  let found = cache.get(ctx.ability);
  if (!found) {
    found = loadVisibility(ctx);
    cache.set(ctx.ability, found);
  }
  return found;
}

export function canSeeProjectOf(visibility: TicketVisibility, ticket: Pick<GuardedTicket, 'project_id'>): boolean {
  return visibility.projectIds === null || visibility.projectIds.has(ticket.project_id);
}

export function isBehindLevel(visibility: TicketVisibility, ticket: Pick<GuardedTicket, 'security_level_id'>): boolean {
  return !visibility.isAdmin && ticket.security_level_id !== null && !visibility.levelIds.has(ticket.security_level_id);
}

/** Whether a ticket may appear to the member at all (search, links, subtasks). */
export function canSeeTicket(visibility: TicketVisibility, ticket: Pick<GuardedTicket, 'project_id' | 'security_level_id'>): boolean {
  return canSeeProjectOf(visibility, ticket) && !isBehindLevel(visibility, ticket);
}

/** A ticket in a project the member cannot see is 404 (like one that does not exist). */
export const ticketNotFound = (key: string) => notFound(`Ticket ${key}`);

/** A ticket behind a security level the member is not in is 403 (spec 7). */
export const ticketBehindLevel = (key: string) => forbidden(`Ticket ${key} is behind a security level you are not in`);

/** A ticket in a project the member cannot see is 404; one behind a security level is 403 (spec 7). */
export async function assertCanSeeTicket(ctx: Context, ticket: GuardedTicket): Promise<void> {
  const visibility = await ticketVisibility(ctx);
  if (!canSeeProjectOf(visibility, ticket)) throw ticketNotFound(ticket.key);
  if (isBehindLevel(visibility, ticket)) throw ticketBehindLevel(ticket.key);
}

const ACTIONS: Partial<Record<Permission, string>> = {
  'ticket:create': 'create tickets',
  'ticket:transition': 'move tickets through the workflow',
  'ticket:assign': 'assign tickets',
  'ticket:comment': 'comment on tickets',
  'time:log': 'log work',
};

export async function requirePermission(ctx: Context, permission: Permission, projectId: string, projectKey: string): Promise<void> {
  if (!(await ctx.ability.can(permission, projectId))) {
    throw forbidden(`You may not ${ACTIONS[permission] ?? permission} in project ${projectKey} (needs ${permission})`);
  }
}

/** PATCH: ticket:edit, or ticket:edit_own on a ticket the member reported (spec 5.6). */
export async function canEditTicket(ctx: Context, ticket: GuardedTicket): Promise<boolean> {
  if (await ctx.ability.can('ticket:edit', ticket.project_id)) return true;
  return ticket.reporter_id === ctx.actor.memberId && (await ctx.ability.can('ticket:edit_own', ticket.project_id));
}

export async function requireEdit(ctx: Context, ticket: GuardedTicket): Promise<void> {
  if (!(await canEditTicket(ctx, ticket))) {
    throw forbidden(`You may not edit ${ticket.key} (needs ticket:edit, or ticket:edit_own on a ticket you reported)`);
  }
}

/** An assignee given without ticket:assign is ignored, not refused (spec 4.2). */
export function mayAssign(ctx: Context, projectId: string): Promise<boolean> {
  return ctx.ability.can('ticket:assign', projectId);
}

/** Ids of the roles the member holds in a project, directly or through a group (transition conditions). */
export async function memberRoleIds(ctx: Context, projectId: string): Promise<Set<string>> {
  const rows = await sql<{ role_id: string }>`
    select distinct pr.role_id from project_roles pr
    where pr.project_id = ${projectId}
      and (pr.member_id = ${ctx.actor.memberId}
           or pr.group_id in (select group_id from group_members where member_id = ${ctx.actor.memberId}))
  `.execute(ctx.db);
  return new Set(rows.rows.map((r) => r.role_id));
}

/**
 * What SQL needs to decide visibility itself: the projects the member may see (from the request's
 * grants); security levels are left to the query (grantedLevelsSql), which saves a round trip.
 */
export interface VisibilityScope {
  memberId: string;
  isAdmin: boolean;
  projectIds: Set<string> | null;
}

export async function visibilityScope(ctx: Context): Promise<VisibilityScope> {
  return { memberId: ctx.actor.memberId, isAdmin: ctx.ability.isAdmin, projectIds: await ctx.ability.visibleProjectIds() };
}

/** SQL: the ticket under `alias` is in a project the member may see. */
export function projectVisibleSql(scope: VisibilityScope, alias = 't'): RawBuilder<boolean> {
  if (scope.isAdmin || scope.projectIds === null) return sql<boolean>`true`;
  return sql<boolean>`(${sql.ref(`${alias}.project_id`)} = any(${[...scope.projectIds]}::uuid[]))`;
}

/** SQL: the ticket under `alias` has no security level, or one granted to the member. */
export function levelGrantedSql(scope: VisibilityScope, alias = 't'): RawBuilder<boolean> {
  if (scope.isAdmin) return sql<boolean>`true`;
  const level = sql.ref(`${alias}.security_level_id`);
  return sql<boolean>`(${level} is null or ${level} in (${grantedLevelsSql(scope.memberId)}))`;
}

/** SQL: the ticket under `alias` is one the member may see (projects and security levels), all in SQL. */
export function visibleInScopeSql(scope: VisibilityScope, alias = 't'): RawBuilder<boolean> {
  if (scope.isAdmin) return sql<boolean>`true`;
  return sql<boolean>`(${projectVisibleSql(scope, alias)} and ${levelGrantedSql(scope, alias)})`;
}

/** SQL: the member's granted security levels as one uuid[] (empty for administrators, who need none). */
export function grantedLevelArraySql(scope: VisibilityScope): RawBuilder<string[]> {
  if (scope.isAdmin) return sql<string[]>`'{}'::uuid[]`;
  return sql<string[]>`array(${grantedLevelsSql(scope.memberId)})`;
}

/**
 * SQL: the ticket under `alias` is one the member may see, with the granted levels given as a
 * uuid[] expression read once (grantedLevelArraySql): a query that tests many tickets plans the
 * grants once rather than at every test.
 */
export function visibleWithLevelsSql(scope: VisibilityScope, alias: string, levels: RawBuilder<string[]>): RawBuilder<boolean> {
  if (scope.isAdmin) return sql<boolean>`true`;
  const level = sql.ref(`${alias}.security_level_id`);
  return sql<boolean>`(${projectVisibleSql(scope, alias)} and (${level} is null or ${level} = any(${levels})))`;
}

/** SQL: ticket `t` is one the member may see (projects and security levels). */
export function visibleTicketSql(visibility: TicketVisibility): RawBuilder<boolean> {
  if (visibility.isAdmin) return sql<boolean>`true`;
  const projects = [...(visibility.projectIds ?? [])];
  const levels = [...visibility.levelIds];
  return sql<boolean>`(t.project_id = any(${projects}::uuid[]) and (t.security_level_id is null or t.security_level_id = any(${levels}::uuid[])))`;
}

/** SQL: comment `c` on ticket `t` may be read by the member (restricted to a role or group they hold). */
export function readableCommentSql(visibility: Pick<TicketVisibility, 'memberId' | 'isAdmin'>): RawBuilder<boolean> {
  if (visibility.isAdmin) return sql<boolean>`true`;
  const me = visibility.memberId;
  return sql<boolean>`(c.visibility <> 'restricted'
    or c.restricted_group_id in (select group_id from group_members where member_id = ${me})
    or exists (select 1 from project_roles pr
               where pr.project_id = t.project_id and pr.role_id = c.restricted_role_id
                 and (pr.member_id = ${me} or pr.group_id in (select group_id from group_members where member_id = ${me}))))`;
}
