import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../storage/schema.ts';
import { PERMISSIONS, READ_ONLY_PERMISSIONS, type Permission } from './permissions.ts';

export type Access = 'read' | 'write';

export interface Subject {
  memberId: string;
  isAdmin: boolean;
  access: Access;
}

/**
 * What one member, through one token, may do in each project. Every permission question of the
 * service goes through here, so REST, MCP and the pages agree. Grants are read once per request.
 */
/** One role a member holds in a project (directly or through a group): the permissions it grants there. */
export interface GrantRow {
  project_id: string;
  permissions: string[];
}

/** A member as a statement names them: an id, or an SQL expression such as `m.id` or `n.member_id`. */
export type MemberSql = string | ReturnType<typeof sql.ref> | RawBuilder<string>;

/** SQL: the FROM and WHERE of every role the member holds in a project, directly or through a group (`pr`, `r`). */
function heldRolesSql(memberId: MemberSql): RawBuilder<unknown> {
  return sql`from project_roles pr join roles r on r.id = pr.role_id
    where (pr.member_id = ${memberId}
           or pr.group_id in (select group_id from group_members where member_id = ${memberId}))`;
}

/**
 * SQL: every role the member under `memberId` (an id, or an SQL expression such as `m.id`) holds,
 * as one JSON array of GrantRow — so the bearer lookup reads the grants in the same round trip.
 */
export function grantRowsSql(memberId: MemberSql): RawBuilder<GrantRow[]> {
  return sql<GrantRow[]>`coalesce((
    select json_agg(json_build_object('project_id', pr.project_id, 'permissions', r.permissions))
    ${heldRolesSql(memberId)}), '[]')`;
}

/**
 * SQL: ids of the projects where the member holds a permission through their roles, read by the
 * statement itself from the rows the Ability reads (grantRowsSql), for a member who is not the
 * request's (a notification's recipient). Administrators are the caller's to let through (memberIsAdminSql).
 */
export function projectsHeldSql(memberId: MemberSql, permission: Permission): RawBuilder<{ project_id: string }> {
  return sql<{ project_id: string }>`
    select pr.project_id ${heldRolesSql(memberId)} and ${permission} = any(r.permissions)`;
}

/** SQL: whether the member is an installation administrator (who holds every permission, spec 5.6). */
export function memberIsAdminSql(memberId: MemberSql): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from members am where am.id = ${memberId} and am.is_admin)`;
}

/**
 * SQL: ids of the security levels granted to the member under `memberId` (an id, or an SQL
 * expression such as `m.id`) — by member, by group, or by a role they hold in the level's project
 * — as one JSON array, so the bearer lookup reads them in the same round trip as the grants.
 */
export function grantedLevelsSql(memberId: MemberSql): RawBuilder<string[]> {
  return sql<string[]>`coalesce((select json_agg(distinct g.level_id) ${levelGrantsSql(memberId)}), '[]')`;
}

/** SQL: ids of the security levels granted to the member (grantedLevelsSql's, as rows), for any member. */
export function grantedLevelIdsSql(memberId: MemberSql): RawBuilder<{ level_id: string }> {
  return sql<{ level_id: string }>`select g.level_id ${levelGrantsSql(memberId)}`;
}

function levelGrantsSql(memberId: MemberSql): RawBuilder<unknown> {
  return sql`from security_level_grants g
    join security_levels l on l.id = g.level_id
    where g.member_id = ${memberId}
       or g.group_id in (select group_id from group_members where member_id = ${memberId})
       or g.role_id in (${memberRolesSql(memberId, sql.ref('l.project_id'))})`;
}

function grantMap(rows: readonly GrantRow[]): Map<string, Set<Permission>> {
  const grants = new Map<string, Set<Permission>>();
  for (const row of rows) {
    const set = grants.get(row.project_id) ?? new Set<Permission>();
    for (const permission of row.permissions) set.add(permission as Permission);
    grants.set(row.project_id, set);
  }
  return grants;
}

// The bearer lookup hands the same MemberAccess to every request of a token while config_version
// stays (auth/bearer.ts), so its map is built once, not per request; it is only ever read.
const heldMaps = new WeakMap<MemberAccess, HeldAccess>();

function heldAccess(given: MemberAccess): HeldAccess {
  let held = heldMaps.get(given);
  if (!held) {
    held = { grants: grantMap(given.grants), levels: given.levels };
    heldMaps.set(given, held);
  }
  return held;
}

/** What the member holds: their roles' permissions by project, and the security levels granted to them. */
export interface MemberAccess {
  grants: readonly GrantRow[];
  levels: readonly string[];
}

interface HeldAccess {
  grants: Map<string, Set<Permission>>;
  levels: readonly string[];
}

export class Ability {
  #held: Promise<HeldAccess> | null = null;
  readonly #given: MemberAccess | undefined;
  private readonly db: Kysely<DB>;
  readonly subject: Subject;

  /** `held`: the member's grants and levels when the caller read them already (the bearer lookup does); else read on first need. */
  constructor(db: Kysely<DB>, subject: Subject, held?: MemberAccess) {
    this.db = db;
    this.subject = subject;
    this.#given = held;
  }

  /** This ability reading through `db` (a transaction begun after it was made), with what it has read already. */
  on(db: Kysely<DB>): Ability {
    const ability = new Ability(db, this.subject, this.#given);
    ability.#held = this.#held;
    return ability;
  }

  get isAdmin(): boolean {
    return this.subject.isAdmin;
  }

  get canWrite(): boolean {
    return this.subject.access === 'write';
  }

  /** The member's own permissions in a project, before the token's access takes any away. */
  async memberPermissions(projectId: string): Promise<ReadonlySet<Permission>> {
    if (this.subject.isAdmin) return new Set(PERMISSIONS);
    const grants = await this.grants();
    return grants.get(projectId) ?? new Set();
  }

  /** The permissions this request holds in a project: the member's, cut down by the token. */
  async permissions(projectId: string): Promise<ReadonlySet<Permission>> {
    const own = await this.memberPermissions(projectId);
    if (this.subject.access === 'write') return own;
    return new Set([...own].filter((p) => READ_ONLY_PERMISSIONS.has(p)));
  }

  async can(permission: Permission, projectId: string): Promise<boolean> {
    return (await this.permissions(projectId)).has(permission);
  }

  /** Projects the member may see (project:view), or null meaning every project (administrators). */
  async visibleProjectIds(): Promise<Set<string> | null> {
    return this.projectsWith('project:view');
  }

  /** Projects where this request holds a permission (the token's access applied), or null meaning every project (administrators). */
  async projectsWith(permission: Permission): Promise<Set<string> | null> {
    if (this.subject.isAdmin && (this.canWrite || READ_ONLY_PERMISSIONS.has(permission))) return null;
    if (this.subject.isAdmin) return new Set();
    if (!this.canWrite && !READ_ONLY_PERMISSIONS.has(permission)) return new Set();
    const grants = await this.grants();
    return new Set([...grants].filter(([, set]) => set.has(permission)).map(([id]) => id));
  }

  async canSeeProject(projectId: string): Promise<boolean> {
    const visible = await this.visibleProjectIds();
    return visible === null || visible.has(projectId);
  }

  /**
   * What to key anything derived from the member's roles by, so that it lasts exactly as long as
   * they do: the MemberAccess the bearer lookup hands to every request of one token while
   * config_version stays (roles and groups change only with the workspace file, which bumps it),
   * else this request's Ability.
   */
  get rolesKey(): object {
    return this.#given ?? this;
  }

  /** Security levels granted to the member (spec 7); administrators need none and get none. */
  async grantedLevelIds(): Promise<readonly string[]> {
    if (this.subject.isAdmin) return [];
    return (await this.held()).levels;
  }

  private async grants(): Promise<Map<string, Set<Permission>>> {
    return (await this.held()).grants;
  }

  private held(): Promise<HeldAccess> {
    this.#held ??= this.#given ? Promise.resolve(heldAccess(this.#given)) : this.loadHeld();
    return this.#held;
  }

  private async loadHeld(): Promise<HeldAccess> {
    const me = this.subject.memberId;
    const { rows } = await sql<MemberAccess>`select ${grantRowsSql(me)} as grants, ${grantedLevelsSql(me)} as levels`.execute(this.db);
    return { grants: grantMap(rows[0]?.grants ?? []), levels: rows[0]?.levels ?? [] };
  }
}

/** SQL: ids of the roles a member holds in a project (an id, or an SQL expression such as `l.project_id`), directly or through a group. */
export function memberRolesSql(
  memberId: MemberSql,
  projectId: string | RawBuilder<unknown> | ReturnType<typeof sql.ref>,
): RawBuilder<{ role_id: string }> {
  return sql<{ role_id: string }>`
    select pr.role_id from project_roles pr
    where pr.project_id = ${projectId}
      and (pr.member_id = ${memberId} or pr.group_id in (select group_id from group_members where member_id = ${memberId}))`;
}

/** SQL: members (id, name) whose role in the project grants a permission, plus administrators; active ones only. */
export function membersHoldingSql(projectId: string, permission: Permission): RawBuilder<{ id: string; name: string }> {
  // One semi-join over the project's few role rows, rather than a correlated test per member.
  return sql<{ id: string; name: string }>`
    select m.id, m.display_name as name
    from members m
    where m.active and (m.is_admin or m.id in (
      select pr.member_id
      from project_roles pr join roles r on r.id = pr.role_id
      where pr.project_id = ${projectId} and pr.member_id is not null and ${permission} = any(r.permissions)
      union
      select gm.member_id
      from project_roles pr join roles r on r.id = pr.role_id join group_members gm on gm.group_id = pr.group_id
      where pr.project_id = ${projectId} and ${permission} = any(r.permissions)
    ))`;
}

/** Members whose role in the project grants a permission, plus administrators; active ones only, by name. */
export async function membersHolding(db: Kysely<DB>, projectId: string, permission: Permission) {
  const { rows } = await sql<{ id: string; name: string }>`
    select h.id, h.name from (${membersHoldingSql(projectId, permission)}) h order by h.name, h.id
  `.execute(db);
  return rows;
}
