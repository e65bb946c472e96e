import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { forbidden } from '../../core/errors.ts';
import { memberIsAdminSql, type MemberSql } from '../../policy/ability.ts';
import { READ_ONLY_PERMISSIONS, type Permission } from '../../policy/permissions.ts';
import type { DB } from '../../storage/schema.ts';
import { crmGrantRows } from './repo.ts';

/**
 * Who may do what in the CRM (spec 4.7, 5.6). CRM roles are held per member or group, over the
 * whole CRM or over single companies (the workspace file's `crm.roles`); the role's crm:view,
 * crm:edit and crm:manage apply there. Managing includes editing, editing includes seeing. A
 * read token keeps crm:view alone; administrators hold everything.
 */
export const CRM_PERMISSIONS = ['crm:view', 'crm:edit', 'crm:manage'] as const satisfies readonly Permission[];
export type CrmPermission = (typeof CRM_PERMISSIONS)[number];

const INCLUDES: Record<CrmPermission, readonly CrmPermission[]> = {
  'crm:view': ['crm:view'],
  'crm:edit': ['crm:edit', 'crm:view'],
  'crm:manage': ['crm:manage', 'crm:edit', 'crm:view'],
};

/** The policy table: what each action needs, for the company concerned (or the whole CRM when none). */
export const CRM_POLICY = {
  /** Reading contacts, companies, interactions and a deal's CRM side. */
  see: { needs: 'crm:view', doing: 'see' },
  /** Creating and changing contacts and companies, logging interactions, setting a deal's company. */
  edit: { needs: 'crm:edit', doing: 'change' },
  /** Completing somebody else's follow-up. */
  manage: { needs: 'crm:manage', doing: 'manage' },
} as const satisfies Record<string, { needs: CrmPermission; doing: string }>;

export type CrmAction = keyof typeof CRM_POLICY;

/** What one request holds in the CRM: over the whole of it, and over single companies. */
export interface CrmAccess {
  everywhere: ReadonlySet<CrmPermission>;
  byCompany: ReadonlyMap<string, ReadonlySet<CrmPermission>>;
}

/** A company as a permission question names it. */
export interface CrmTarget {
  id: string;
  name: string;
}

function expand(permissions: readonly string[], readOnly: boolean): Set<CrmPermission> {
  const held = new Set<CrmPermission>();
  for (const permission of permissions) {
    if (!(CRM_PERMISSIONS as readonly string[]).includes(permission)) continue;
    for (const included of INCLUDES[permission as CrmPermission]) held.add(included);
  }
  if (readOnly) for (const p of [...held]) if (!READ_ONLY_PERMISSIONS.has(p)) held.delete(p);
  return held;
}

// Keyed by the request's rolesKey: per token while config_version stays (crm_roles, like the
// project roles, change only with the workspace file, which bumps it), else per request.
const accesses = new WeakMap<object, Promise<CrmAccess>>();

async function loadAccess(ctx: Context): Promise<CrmAccess> {
  const readOnly = !ctx.ability.canWrite;
  if (ctx.ability.isAdmin) return { everywhere: expand(CRM_PERMISSIONS, readOnly), byCompany: new Map() };
  const rows = await crmGrantRows(ctx.db, ctx.actor.memberId);
  const everywhere = expand(
    rows.filter((r) => r.company_id === null).flatMap((r) => r.permissions),
    readOnly,
  );
  const byCompany = new Map<string, Set<CrmPermission>>();
  for (const row of rows) {
    if (row.company_id === null) continue;
    const held = byCompany.get(row.company_id) ?? new Set<CrmPermission>();
    for (const p of expand(row.permissions, readOnly)) held.add(p);
    byCompany.set(row.company_id, held);
  }
  return { everywhere, byCompany };
}

/** The request's CRM access, read at most once per request, and once per token while the roles stay. */
export function crmAccess(ctx: Context): Promise<CrmAccess> {
  const key = ctx.ability.rolesKey;
  let access = accesses.get(key);
  if (!access) {
    access = loadAccess(ctx);
    accesses.set(key, access);
    // a failed read is not kept for the token's next requests
    access.catch(() => accesses.delete(key));
  }
  return access;
}

/** Whether the access allows the action for a company (by id), or for records with no company (null: the whole CRM's roles decide). */
export function allows(access: CrmAccess, action: CrmAction, companyId: string | null): boolean {
  const needs = CRM_POLICY[action].needs;
  if (access.everywhere.has(needs)) return true;
  return companyId !== null && (access.byCompany.get(companyId)?.has(needs) ?? false);
}

/** The CRM is open to the member: they may see it somewhere (spec 4.7: closed members get 404 on records, 403 on lists). */
export function isOpen(access: CrmAccess): boolean {
  return access.everywhere.has('crm:view') || [...access.byCompany.values()].some((held) => held.has('crm:view'));
}

/** Companies the member may take an action for; null: every company (and records with none). */
export function companiesAllowing(access: CrmAccess, action: CrmAction): string[] | null {
  const needs = CRM_POLICY[action].needs;
  if (access.everywhere.has(needs)) return null;
  return [...access.byCompany].filter(([, held]) => held.has(needs)).map(([id]) => id);
}

/** SQL: the company id under `column` (null: a record with no company) is one the member may see. */
export function companyVisibleSql(access: CrmAccess, column: string): RawBuilder<boolean> {
  const ids = companiesAllowing(access, 'see');
  if (ids === null) return sql<boolean>`true`;
  if (ids.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(${sql.ref(column)} = any(${ids}::uuid[]))`;
}

type SqlRef = ReturnType<typeof sql.ref>;

/**
 * SQL: the member under `member` may see the CRM for the company under `company` (null: records
 * with no company, which need a role over the whole CRM): an administrator, or a CRM role there
 * (every CRM permission includes crm:view). The rule crmAccess reads in the process, from the same
 * rows, asked by a statement for whoever a record is carried to.
 */
export function crmSeesSql(member: MemberSql, company: RawBuilder<string | null> | SqlRef): RawBuilder<boolean> {
  return sql<boolean>`(${memberIsAdminSql(member)} or exists (
    select 1 from crm_roles cr join roles r on r.id = cr.role_id
    where (cr.member_id = ${member}
           or cr.group_id in (select gm.group_id from group_members gm where gm.member_id = ${member}))
      and (cr.company_id is null or cr.company_id = ${company})
      and r.permissions && ${[...CRM_PERMISSIONS]}::text[]))`;
}

/** Active members who may see the CRM for a company (null: records with no company), administrators too, by name. */
export async function crmMembers(db: Kysely<DB>, companyId: string | null): Promise<{ id: string; name: string }[]> {
  const { rows } = await sql<{ id: string; name: string }>`
    select m.id, m.display_name as name from members m
    where m.active and ${crmSeesSql(sql.ref('m.id'), sql<string | null>`${companyId}::uuid`)}
    order by m.display_name, m.id
  `.execute(db);
  return rows;
}

const CLOSED = 'You may not see the CRM (needs crm:view from a CRM role)';

/** 403 for a list the CRM is closed to (spec 4.7). */
export async function requireOpenCrm(ctx: Context): Promise<CrmAccess> {
  const access = await crmAccess(ctx);
  if (!isOpen(access)) throw forbidden(CLOSED);
  return access;
}

/** 403 `forbidden` naming what is missing, unless the request may take the action for the company (null: a record with no company). */
export async function requireCrm(ctx: Context, action: CrmAction, company: CrmTarget | null, what?: string): Promise<void> {
  const access = await crmAccess(ctx);
  if (allows(access, action, company?.id ?? null)) return;
  const rule = CRM_POLICY[action];
  const doing = what ?? `${rule.doing} the CRM`;
  const scope = company ? `for ${company.name}` : 'for records with no company';
  const needs = company ? `${rule.needs} for that company or the whole CRM` : `${rule.needs} for the whole CRM`;
  throw forbidden(`You may not ${doing} ${scope} (needs ${needs})`);
}

/**
 * Whether the CRM is open to a member at all (an administrator, or any CRM role): what the MCP
 * instructions ask before naming the CRM tools (spec 4.8). A read token keeps crm:view, which
 * every CRM role includes, so the token's access does not change the answer.
 */
export async function crmOpenTo(db: Kysely<DB>, member: { memberId: string; isAdmin: boolean }): Promise<boolean> {
  if (member.isAdmin) return true;
  const rows = await crmGrantRows(db, member.memberId);
  return rows.some((row) => row.permissions.some((p) => (CRM_PERMISSIONS as readonly string[]).includes(p)));
}
