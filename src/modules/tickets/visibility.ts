import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { forbidden, notFound } from '../../core/errors.ts';
import type { RecordSql } from '../../core/visibility.ts';
import { grantedLevelIdsSql, memberIsAdminSql, memberRolesSql, projectsHeldSql, type MemberSql } from '../../policy/ability.ts';
import { uuidListSql, type Binding } from '../../storage/parameter-binding.ts';

/**
 * Which tickets a member may see (spec 5.6, 7): those of projects they may see (project:view),
 * and of those, tickets with no security level or one granted to them — by member, by group, or
 * by a role they hold in the level's project. One scope per request, one builder per question, so
 * search, a ticket's page, boards and links cannot disagree; decided in SQL, except for one
 * ticket read by key (ticketAccessOf).
 */
export interface TicketScope {
  memberId: string;
  isAdmin: boolean;
  /** Projects the member may see, as the list queries are given; null = all (administrators). */
  projectIds: readonly string[] | null;
  /** Security levels granted to the member (none for administrators, who need none). */
  levelIds: readonly string[];
}

// Keyed by the request's rolesKey: per token while config_version stays (grants and levels change
// only with the workspace file, which bumps it), else per request. Building it from the grants
// was about 25 µs of every ticket read (ADR 0033).
const scopes = new WeakMap<object, Promise<TicketScope>>();

/**
 * The member's scope, from the grants and levels the request's Ability already holds (the bearer
 * lookup reads them), so every query tests a ticket's level against a list given as a parameter
 * rather than planning the lookup of the member's levels again. Frozen: requests share it.
 */
export function ticketScope(ctx: Context): Promise<TicketScope> {
  const key = ctx.ability.rolesKey;
  let scope = scopes.get(key);
  if (!scope) {
    scope = Promise.all([ctx.ability.visibleProjectIds(), ctx.ability.grantedLevelIds()]).then(([projectIds, levelIds]) =>
      Object.freeze({
        memberId: ctx.actor.memberId,
        isAdmin: ctx.ability.isAdmin,
        projectIds: projectIds === null ? null : Object.freeze([...projectIds]),
        levelIds: Object.freeze([...levelIds]),
      }),
    );
    scopes.set(key, scope);
    // a failed read is not kept for the token's next requests
    scope.catch(() => scopes.delete(key));
  }
  return scope;
}

/** SQL: the ticket under `alias` is in one of `projects` (an array). */
const inProjectsSql = (projects: RawBuilder<string[]>, alias: string) =>
  sql<boolean>`(${sql.ref(`${alias}.project_id`)} = any(${projects}))`;

/** SQL: the ticket under `alias` has no security level, or one of `levels` (an array). */
function levelAmongSql(levels: RawBuilder<string[]>, alias: string): RawBuilder<boolean> {
  const level = sql.ref(`${alias}.security_level_id`);
  return sql<boolean>`(${level} is null or ${level} = any(${levels}))`;
}

/** SQL: the ticket under `alias` is in a project the member may see. */
export function projectVisibleSql(scope: TicketScope, alias = 't', binding: Binding = 'planned for'): RawBuilder<boolean> {
  if (scope.isAdmin || scope.projectIds === null) return sql<boolean>`true`;
  return inProjectsSql(uuidListSql(scope.projectIds, binding), alias);
}

/** SQL: the ticket under `alias` has no security level, or one granted to the member (given as a parameter). */
export function levelGrantedSql(scope: TicketScope, alias = 't', binding: Binding = 'planned for'): RawBuilder<boolean> {
  if (scope.isAdmin) return sql<boolean>`true`;
  return levelAmongSql(uuidListSql(scope.levelIds, binding), alias);
}

/** SQL: the ticket under `alias` is one the member may see. */
export function visibleTicketSql(scope: TicketScope, alias = 't', binding: Binding = 'planned for'): RawBuilder<boolean> {
  if (scope.isAdmin) return sql<boolean>`true`;
  return sql<boolean>`(${projectVisibleSql(scope, alias, binding)} and ${levelGrantedSql(scope, alias, binding)})`;
}

/**
 * SQL: the ticket under `alias` is one the member under `member` may see now: visibleTicketSql's
 * rule, with the member's projects and levels read by the statement itself, for whoever a change
 * is carried to (a notification's recipient, an open page's member) rather than the request's member.
 */
export function ticketVisibleToSql(member: MemberSql, alias = 't'): RawBuilder<boolean> {
  const projects = sql<string[]>`array(${projectsHeldSql(member, 'project:view')})`;
  const levels = sql<string[]>`array(${grantedLevelIdsSql(member)})`;
  const rule = sql<boolean>`(${inProjectsSql(projects, alias)} and ${levelAmongSql(levels, alias)})`;
  return sql<boolean>`(${memberIsAdminSql(member)} or ${rule})`;
}

/** SQL: the ticket with id `ticket` (an SQL expression) is one the member under `member` may see now. */
export function ticketRecordVisibleSql(member: MemberSql, ticket: RecordSql): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from tickets vis_t
    where vis_t.id = ${ticket} and ${ticketVisibleToSql(member, 'vis_t')})`;
}

/** SQL: comment `c` on ticket `t` may be read by the member (a restricted one: they are in its group, or hold its role in the project). */
export function readableCommentSql(scope: Pick<TicketScope, 'memberId' | 'isAdmin'>): RawBuilder<boolean> {
  if (scope.isAdmin) return sql<boolean>`true`;
  const me = scope.memberId;
  return sql<boolean>`(c.visibility <> 'restricted'
    or c.restricted_group_id in (select group_id from group_members where member_id = ${me})
    or c.restricted_role_id in (${memberRolesSql(me, sql.ref('t.project_id'))}))`;
}

/** What a read of one ticket learns of its visibility, decided in the same query as the ticket. */
export interface TicketAccess {
  /** The ticket's project is one the member may see (else the ticket is 404 to them). */
  project_visible: boolean;
  /** The ticket has no security level, or one granted to the member (else 403). */
  level_granted: boolean;
}

/** What TicketAccess is decided on: where the ticket is. */
export interface TicketAccessFacts {
  project_id: string;
  security_level_id: string | null;
}

/**
 * The TicketAccess of a ticket already read, decided in the process by the rule the builders above
 * write in SQL (projectVisibleSql, levelGrantedSql), for a read of one ticket by key that
 * filters nothing (its detail with its links and subtasks, its state before a change). The scope's
 * lists as parameters were read again at every bind, a quarter of the detail's time in PostgreSQL
 * (ADR 0007). The same scope decides both, and test/tickets holds them to the same answers.
 */
export function ticketAccessOf(scope: TicketScope, ticket: TicketAccessFacts): TicketAccess {
  if (scope.isAdmin) return { project_visible: true, level_granted: true };
  const level = ticket.security_level_id;
  return {
    project_visible: scope.projectIds === null || scope.projectIds.includes(ticket.project_id),
    level_granted: level === null || scope.levelIds.includes(level),
  };
}

/** A ticket in a project the member cannot see is 404 (like one that does not exist). */
export const ticketNotFound = (key: string) => notFound(`Ticket ${key}`);

/** A ticket behind a security level the member is not in is 403 (spec 7). */
export const ticketBehindLevel = (key: string) => forbidden(`Ticket ${key} is behind a security level you are not in`);

/** 404 for a ticket the member may not know of, 403 for one behind a level; nothing for one they may see. */
export function refuseUnseen(key: string, access: TicketAccess | undefined): void {
  if (!access?.project_visible) throw ticketNotFound(key);
  if (!access.level_granted) throw ticketBehindLevel(key);
}

export const isVisible = (access: TicketAccess) => access.project_visible && access.level_granted;
