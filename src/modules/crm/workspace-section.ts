import { writeHistory } from '../../core/history.ts';
import { candidateList, normalizeName } from '../../core/names.ts';
import { requireName } from '../../workspace/check-names.ts';
import type { ApplyContext, CheckContext, WorkspaceSectionHandler } from '../../workspace/context.ts';
import { fail, filePath } from '../../workspace/path.ts';
import type { StoredRow } from '../../workspace/writer.ts';
import { applySeeds, checkSeeds } from './workspace-seeds.ts';
import { CrmSectionEntry, type CompanyEntry, type CrmRoleEntry } from './workspace-schema.ts';

declare module '../../workspace/schema.ts' {
  interface WorkspaceFileExtensions {
    crm?: CrmSectionEntry;
  }
}

/**
 * `crm`: who holds which CRM role (the whole list), the companies (upserted by name: the browser
 * creates and archives them, and the file stands in for it), then seed contacts, deals' companies
 * and people, and interactions — data, created once. Runs after every other section: deals are
 * seed tickets of sales projects.
 */

const at = (...parts: (string | number)[]) => filePath('crm', ...parts);

/** Company names the file may use: those it declares and those already stored. */
async function knownCompanies(ctx: CheckContext): Promise<string[]> {
  const stored = await ctx.db.selectFrom('companies').select('name').orderBy('name').execute();
  const names = new Map(stored.map((c) => [normalizeName(c.name), c.name]));
  for (const company of ctx.file.crm?.companies ?? []) names.set(normalizeName(company.name), company.name.trim());
  return [...names.values()];
}

function checkCompanies(companies: readonly CompanyEntry[]): void {
  const seen = new Map<string, number>();
  companies.forEach((company, i) => {
    const key = normalizeName(company.name);
    if (seen.has(key))
      fail(at('companies', i, 'name'), `company "${company.name.trim()}" is declared twice (also ${at('companies', seen.get(key)!)})`);
    seen.set(key, i);
  });
}

function checkRoles(ctx: CheckContext, roles: readonly CrmRoleEntry[], companies: readonly string[]): void {
  roles.forEach((entry, r) => {
    requireName(ctx.roles, entry.role, at('roles', r, 'role'), 'role');
    (entry.members ?? []).forEach((ref, m) => ctx.people.find(ref, at('roles', r, 'members', m)));
    (entry.groups ?? []).forEach((name, g) => requireName(ctx.groups, name, at('roles', r, 'groups', g), 'group'));
    (entry.companies ?? []).forEach((name, c) => requireName(companies, name, at('roles', r, 'companies', c), 'company'));
  });
}

async function check(ctx: CheckContext): Promise<void> {
  const crm = ctx.file.crm;
  if (!crm) return;
  checkCompanies(crm.companies ?? []);
  const companies = await knownCompanies(ctx);
  checkRoles(ctx, crm.roles ?? [], companies);
  checkSeeds(ctx, crm, companies);
}

/** The row a company entry asks for: what it states; what it leaves out stays (a new company gets the defaults). */
function companyValues(ctx: ApplyContext, entry: CompanyEntry, c: number, isNew: boolean): Record<string, unknown> {
  const kept = <T>(value: T | undefined, fallback: T) => (value !== undefined ? value : isNew ? fallback : undefined);
  const owner =
    entry.owner === undefined ? undefined : entry.owner === null ? null : ctx.people.id(entry.owner, at('companies', c, 'owner'));
  return {
    name: entry.name.trim(),
    domains: kept(entry.domains && [...new Set(entry.domains.map((d) => d.toLowerCase()))], []),
    stage: kept(entry.stage, 'lead'),
    industry: kept(entry.industry, null),
    size: kept(entry.size, null),
    website: kept(entry.website, null),
    owner_id: kept(owner, null),
    customer: kept(entry.customer, false),
    archived: kept(entry.archived, false),
    description_format: entry.description === undefined ? kept(undefined, null) : entry.description === null ? null : 'markdown',
    description_text: kept(entry.description, null),
  };
}

async function applyCompanies(ctx: ApplyContext, companies: readonly CompanyEntry[]): Promise<void> {
  const stored = await ctx.db.selectFrom('companies').selectAll().execute();
  for (const [c, entry] of companies.entries()) {
    const existing = stored.find((s) => normalizeName(s.name) === normalizeName(entry.name));
    const id = await ctx.writer.save('companies', existing as StoredRow | undefined, companyValues(ctx, entry, c, !existing), {
      touch: true,
    });
    if (!existing) {
      await writeHistory(
        ctx.db,
        { actorId: null, via: 'workspace file' },
        { entityType: 'company', entityId: id, kind: 'created', changes: [{ field: 'name', from: null, to: entry.name.trim() }] },
      );
    }
  }
}

type Grant = { role_id: string; member_id: string | null; group_id: string | null; company_id: string | null };
const grantKey = (g: Grant) => [g.role_id, g.member_id ?? '', g.group_id ?? '', g.company_id ?? ''].join('|');

/** Makes crm_roles exactly what the file lists: missing grants added, others deleted, the rest untouched. */
async function applyRoles(ctx: ApplyContext, roles: readonly CrmRoleEntry[]): Promise<void> {
  const companies = await ctx.db.selectFrom('companies').select(['id', 'name']).execute();
  const companyId = (name: string, path: string) =>
    companies.find((c) => normalizeName(c.name) === normalizeName(name))?.id ??
    fail(
      path,
      `no company "${name.trim()}"; companies are ${candidateList(
        name,
        companies.map((c) => c.name),
      )}`,
    );
  const wanted = roles.flatMap((entry, r): Grant[] => {
    const roleId = ctx.roleIds.get(normalizeName(entry.role))!;
    const places = entry.companies ? entry.companies.map((name, c) => companyId(name, at('roles', r, 'companies', c))) : [null];
    const holders = [
      ...(entry.members ?? []).map((ref, m) => ({ member_id: ctx.people.id(ref, at('roles', r, 'members', m)), group_id: null })),
      ...(entry.groups ?? []).map((name) => ({ member_id: null, group_id: ctx.groupIds.get(normalizeName(name))! })),
    ];
    return places.flatMap((company_id) => holders.map((holder) => ({ role_id: roleId, ...holder, company_id })));
  });
  const stored = await ctx.db.selectFrom('crm_roles').selectAll().execute();
  const storedKeys = new Set(stored.map(grantKey));
  const wantedKeys = new Set(wanted.map(grantKey));
  const added = [...new Map(wanted.filter((g) => !storedKeys.has(grantKey(g))).map((g) => [grantKey(g), g])).values()];
  if (added.length) {
    await ctx.db.insertInto('crm_roles').values(added).execute();
    ctx.writer.log.note('crm_roles', 'created', added.length);
  }
  await ctx.writer.delete(
    'crm_roles',
    stored.filter((s) => !wantedKeys.has(grantKey(s))).map((s) => s.id),
  );
}

async function apply(ctx: ApplyContext): Promise<void> {
  const crm = ctx.file.crm;
  if (!crm) return;
  if (crm.companies) await applyCompanies(ctx, crm.companies);
  if (crm.roles) await applyRoles(ctx, crm.roles);
  await applySeeds(ctx, crm);
}

export const crmSection: WorkspaceSectionHandler = { name: 'crm', fileKeys: { crm: CrmSectionEntry }, check, apply };
