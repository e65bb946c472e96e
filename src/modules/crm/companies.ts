import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import { recordHistory } from '../../core/history.ts';
import { resolvePerson } from '../../core/people.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { ticketScope, visibleTicketSql } from '../tickets/index.ts';
import { companyNameTaken, companyPage, lockCompany, updateCompany as writeCompany, type CompanyValues } from './companies-repo.ts';
import { companyContacts } from './contacts-repo.ts';
import { companyDeals, type CompanyDealRow } from './deals-repo.ts';
import { companyVisibleSql, crmAccess, requireCrm, requireOpenCrm } from './policy.ts';
import { presentCompany, presentContact, presentDealSummary } from './present.ts';
import { prefixQuery } from './repo.ts';
import { loadCompany, resolveCrmMember } from './resolve.ts';
import type { Company, CompanyDetail, CompanyList, SearchCompaniesQuery, UpdateCompanyBody } from './schemas.ts';

/**
 * Companies (spec 2.9, 4.7): found and read by whoever may see the CRM for them; changed by
 * whoever may edit it for them. They are created and archived in the browser (the workspace file
 * for now); `customer` and billing details are the administrator's and not changeable here.
 */

/** GET /companies: by name; a member limited to some companies finds only those; the CRM closed is 403. */
export async function searchCompanies(ctx: Context, input: SearchCompaniesQuery): Promise<CompanyList> {
  const access = await requireOpenCrm(ctx);
  const limit = input.limit ?? 20;
  const offset = input.offset ?? 0;
  const conditions: RawBuilder<boolean>[] = [companyVisibleSql(access, 'c.id'), sql<boolean>`c.archived = ${input.archived ?? false}`];
  if (input.stage !== undefined) conditions.push(sql<boolean>`c.stage = ${input.stage}`);
  if (input.owner !== undefined) conditions.push(sql<boolean>`c.owner_id = ${(await resolvePerson(ctx, input.owner, '/owner')).id}`);
  if (input.customers === true) conditions.push(sql<boolean>`c.customer`);
  const words = input.q === undefined ? null : prefixQuery(input.q);
  if (words !== null) conditions.push(sql<boolean>`c.search_vector @@ to_tsquery('simple', ${words})`);
  const { rows, total } = await companyPage(ctx.db, sql.join(conditions, sql` and `), { limit, offset, prepared: words === null });
  return { companies: rows.map((row) => presentCompany(row, ctx.publicUrl)), total, limit, offset };
}

// Deal keys in number order (DEAL-9 before DEAL-10). One collator for every sort: localeCompare
// with options builds a new one at each comparison (0.2 ms of the server's time to read a company
// with 50 deals).
const dealKeys = new Intl.Collator('en', { numeric: true });
const byExpectedClose = (a: CompanyDealRow, b: CompanyDealRow) =>
  (a.fields?.expected_close ?? '9999').localeCompare(b.fields?.expected_close ?? '9999') || dealKeys.compare(a.key, b.key);
const byClosedLatest = (a: CompanyDealRow, b: CompanyDealRow) =>
  (b.resolved_at ?? '').localeCompare(a.resolved_at ?? '') || dealKeys.compare(a.key, b.key);

/** GET /companies/{id} (id or name): the company with its contacts and the deals the member may see, open and closed. */
export async function getCompany(ctx: Context, given: string): Promise<CompanyDetail> {
  const access = await crmAccess(ctx);
  const company = await loadCompany(ctx, access, given);
  const scope = await ticketScope(ctx);
  const [contacts, deals] = await Promise.all([
    companyContacts(ctx.db, company.id),
    companyDeals(ctx.db, company.id, visibleTicketSql(scope, 't')),
  ]);
  const open = deals.filter((d) => d.status_category !== 'done').sort(byExpectedClose);
  const closed = deals.filter((d) => d.status_category === 'done').sort(byClosedLatest);
  return {
    ...presentCompany(company, ctx.publicUrl),
    description:
      company.description_text === null
        ? null
        : { format: (company.description_format ?? 'markdown') as 'markdown', text: company.description_text },
    contacts: contacts.map((row) => presentContact(row, ctx.publicUrl)),
    deals: { open: open.map(presentDealSummary), closed: closed.map(presentDealSummary) },
  };
}

/** `domains` as stored: lowercased, each once, in the order given. */
const domainList = (domains: readonly string[]) => [...new Set(domains.map((d) => d.trim().toLowerCase()))];
const text = (value: string | null) => (value === null ? null : value.trim() || null);

/** PATCH /companies/{id}: only what is sent changes; `domains` replaces the list. */
export async function updateCompany(ctx: Context, given: string, input: UpdateCompanyBody): Promise<Company> {
  const access = await crmAccess(ctx);
  const company = await loadCompany(ctx, access, given);
  await requireCrm(ctx, 'edit', company, 'change companies');
  await lockCompany(ctx.db, company.id);

  const values: CompanyValues = {};
  const changes: HistoryChange[] = [];
  const change = <K extends keyof CompanyValues>(column: K, field: string, from: unknown, to: unknown, value: CompanyValues[K]) => {
    values[column] = value;
    changes.push({ field, from, to });
  };
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name === '') throw invalid('/name', 'must not be blank');
    if (name !== company.name) {
      if (await companyNameTaken(ctx.db, name, company.id))
        throw invalid('/name', `another company is already named "${name}"; company names are unique in the workspace`);
      change('name', 'name', company.name, name, name);
    }
  }
  for (const field of ['website', 'industry'] as const) {
    const next = input[field] === undefined ? undefined : text(input[field]);
    if (next !== undefined && next !== company[field]) change(field, field, company[field], next, next);
  }
  if (input.size !== undefined && input.size !== company.size) change('size', 'size', company.size, input.size, input.size);
  if (input.stage !== undefined && input.stage !== company.stage) change('stage', 'stage', company.stage, input.stage, input.stage);
  if (input.owner !== undefined) {
    const owner = input.owner === null ? null : await resolveCrmMember(ctx, input.owner, company, '/owner');
    if ((owner?.id ?? null) !== company.owner_id) change('owner_id', 'owner', company.owner_name, owner?.name ?? null, owner?.id ?? null);
  }
  if (input.description !== undefined && input.description !== company.description_text) {
    values.description_format = input.description === null ? null : 'markdown';
    change('description_text', 'description', company.description_text, input.description, input.description);
  }
  if (input.domains !== undefined) {
    const domains = domainList(input.domains);
    if (domains.join() !== company.domains.join()) change('domains', 'domains', company.domains, domains, domains);
  }
  if (changes.length > 0) {
    await writeCompany(ctx.db, company.id, values, ctx.now());
    await recordHistory(ctx, { entityType: 'company', entityId: company.id, kind: 'updated', changes });
  }
  return presentCompany(await loadCompany(ctx, access, company.id), ctx.publicUrl);
}
