import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { resolvePerson } from '../../core/people.ts';
import { contactPage, contactTotalSql, findContactDetail } from './contacts-repo.ts';
import { companiesAllowing, companyVisibleSql, crmAccess, requireOpenCrm, type CrmAccess } from './policy.ts';
import { presentContact, presentContactDetail } from './present.ts';
import { isUuid, prefixQuery } from './repo.ts';
import { resolveCompany } from './resolve.ts';
import type { ContactDetail, ContactList, SearchContactsQuery } from './schemas.ts';

/** SQL: contact `c` is one the member may see (its company one they may see; a contact with none needs the whole CRM). */
export const contactVisibleSql = (access: CrmAccess) => companyVisibleSql(access, 'c.company_id');

/** GET /contacts (spec 4.7): newest first; a member limited to some companies finds only theirs; the CRM closed is 403. */
export async function searchContacts(ctx: Context, input: SearchContactsQuery): Promise<ContactList> {
  const access = await requireOpenCrm(ctx);
  const limit = input.limit ?? 20;
  const offset = input.offset ?? 0;
  const archived = input.archived ?? false;
  const filters: RawBuilder<boolean>[] = [];
  if (input.stage !== undefined) filters.push(sql<boolean>`c.stage = ${input.stage}`);
  if (input.owner !== undefined) filters.push(sql<boolean>`c.owner_id = ${(await resolvePerson(ctx, input.owner, '/owner')).id}`);
  if (input.company !== undefined)
    filters.push(sql<boolean>`c.company_id = ${(await resolveCompany(ctx, access, input.company, '/company')).id}`);
  const words = input.q === undefined ? null : prefixQuery(input.q);
  if (words !== null) filters.push(sql<boolean>`c.search_vector @@ to_tsquery('simple', ${words})`);
  const where: RawBuilder<boolean> = sql.join([contactVisibleSql(access), sql<boolean>`c.archived = ${archived}`, ...filters], sql` and `);
  // Every open (or every archived) contact, unfiltered: their total is kept as contacts come and go (migration 0026).
  const kept = filters.length === 0 && companiesAllowing(access, 'see') === null ? contactTotalSql(archived) : undefined;
  const { rows, total } = await contactPage(ctx.db, where, { limit, offset, prepared: words === null }, kept);
  return { contacts: rows.map((row) => presentContact(row, ctx.publicUrl)), total, limit, offset };
}

/** One contact the member may see, in full; 404 for any other (the CRM closed to them included). */
export async function loadContactDetail(ctx: Context, id: string): Promise<ContactDetail> {
  const access = await crmAccess(ctx);
  const row = isUuid(id) ? await findContactDetail(ctx.db, id.trim(), contactVisibleSql(access)) : undefined;
  if (!row) throw notFound(`Contact ${id.trim()}`);
  return presentContactDetail(row, ctx.publicUrl);
}

/** GET /contacts/{id}. */
export const getContact = (ctx: Context, id: string) => loadContactDetail(ctx, id);
