import { sql, type Kysely, type RawBuilder } from 'kysely';
import { pageTotal } from '../../storage/page-total.ts';
import { listPageSql, type ListPage } from '../../storage/page-window.ts';
import { PREPARE } from '../../storage/prepared.ts';
import type { DB } from '../../storage/schema.ts';
import type { CompanySize, CompanyStage } from './tables.ts';

/** A company with its owner's name, as the API presents it. */
export interface CompanyRow {
  id: string;
  name: string;
  domains: string[];
  stage: CompanyStage;
  industry: string | null;
  size: CompanySize | null;
  website: string | null;
  owner_id: string | null;
  owner_name: string | null;
  customer: boolean;
  archived: boolean;
  description_format: string | null;
  description_text: string | null;
}

const companyColumns = sql`
  c.id, c.name, c.domains, c.stage, c.industry, c.size, c.website, c.owner_id, o.display_name as owner_name,
  c.customer, c.archived, c.description_format, c.description_text`;

/**
 * Companies matching `where` (SQL over `c`), by name, one page, with the total. `prepared` as for
 * contactPage: the caller prepares a page of fixed shape (no words).
 */
export async function companyPage(
  db: Kysely<DB>,
  where: RawBuilder<boolean>,
  page: ListPage,
): Promise<{ rows: CompanyRow[]; total: number }> {
  const { marker, window } = listPageSql(page);
  const { rows } = await sql<CompanyRow & { total: number }>`${marker}
    select ${companyColumns}, count(*) over () as total
    from companies c left join members o on o.id = c.owner_id
    where ${where}
    order by lower(c.name), c.id
    ${window}
  `.execute(db);
  return {
    rows,
    total: await pageTotal(
      db,
      rows,
      page.offset,
      sql<{ total: number }>`${marker} select count(*)::int as total from companies c where ${where}`,
    ),
  };
}

/**
 * One company by id, or by name (case-insensitive, surrounding spaces ignored), among those `where`
 * allows. Prepared: every request that names a company asks it, in one of a few shapes.
 */
export async function findCompany(
  db: Kysely<DB>,
  given: string,
  byId: boolean,
  where: RawBuilder<boolean>,
): Promise<CompanyRow | undefined> {
  const name = given.trim().toLowerCase();
  const { rows } = await sql<CompanyRow>`${sql.raw(PREPARE)}
    select ${companyColumns}
    from companies c left join members o on o.id = c.owner_id
    where (${byId ? sql`c.id = ${given.trim()}::uuid or ` : sql``}lower(c.name) = ${name}) and ${where}
    order by (lower(c.name) = ${name}) desc
    limit 1
  `.execute(db);
  return rows[0];
}

/** Up to 25 company names `where` allows, most like `given` first, and how many there are in all (for a no-match message). */
export async function companyNamesLike(
  db: Kysely<DB>,
  given: string,
  where: RawBuilder<boolean>,
): Promise<{ names: string[]; total: number }> {
  const wanted = given.trim().toLowerCase();
  const { rows } = await sql<{ name: string; total: number }>`
    select c.name, count(*) over () as total
    from companies c
    where ${where} and not c.archived
    order by (lower(c.name) like ${`${escapeLike(wanted)}%`}) desc, (strpos(lower(c.name), ${wanted}) > 0) desc, lower(c.name)
    limit 25
  `.execute(db);
  return { names: rows.map((r) => r.name), total: Number(rows[0]?.total ?? 0) };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What PATCH /companies/{id} (and the workspace file) writes; undefined leaves a column alone. */
export interface CompanyValues {
  name?: string;
  domains?: string[];
  stage?: CompanyStage;
  industry?: string | null;
  size?: CompanySize | null;
  website?: string | null;
  owner_id?: string | null;
  customer?: boolean;
  archived?: boolean;
  description_format?: string | null;
  description_text?: string | null;
}

export async function updateCompany(db: Kysely<DB>, id: string, values: CompanyValues, now: Date): Promise<void> {
  await db
    .updateTable('companies')
    .set({ ...values, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Whether another company already has this name (case-insensitive). */
export async function companyNameTaken(db: Kysely<DB>, name: string, exceptId: string | null): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`
    select 1 as one from companies where lower(name) = ${name.trim().toLowerCase()} ${exceptId ? sql`and id <> ${exceptId}` : sql``} limit 1
  `.execute(db);
  return rows.length > 0;
}

/** Holds a company's row for the rest of the transaction (a change reads, checks, then writes). */
export async function lockCompany(db: Kysely<DB>, id: string): Promise<void> {
  await sql`select 1 from companies where id = ${id} for update`.execute(db);
}
