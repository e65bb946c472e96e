import { sql, type Kysely, type RawBuilder } from 'kysely';
import { pageTotal } from '../../storage/page-total.ts';
import { listPageSql, type ListPage } from '../../storage/page-window.ts';
import { PREPARE } from '../../storage/prepared.ts';
import type { DB } from '../../storage/schema.ts';
import type { ConsentAnswer, ContactStage, EmailLabel, PhoneLabel, PostalAddress } from './tables.ts';

/** A contact with its company's and owner's names and its primary address: what Contact shows. */
export interface ContactRow {
  id: string;
  name: string;
  job_title: string | null;
  stage: ContactStage;
  company_id: string | null;
  company_name: string | null;
  owner_id: string | null;
  owner_name: string | null;
  email: string | null;
  archived: boolean;
}

export interface ContactDetailRow extends ContactRow {
  emails: { address: string; label: EmailLabel; primary: boolean }[];
  phones: { number: string; label: PhoneLabel; primary: boolean }[];
  postal_addresses: PostalAddress[];
  notes_format: string | null;
  notes_text: string | null;
  source: string;
  has_account: boolean;
  created_at: string;
  fields: Record<string, string>;
  consent: ConsentAnswer[];
}

/** SQL: the ContactRow columns of contact `c`; needs `contactJoins`. */
export const contactColumns = sql`
  c.id, c.name, c.job_title, c.stage, c.company_id, co.name as company_name, c.owner_id, o.display_name as owner_name,
  (select e.address from contact_emails e where e.contact_id = c.id and e.is_primary) as email, c.archived`;

export const contactJoins = sql`left join companies co on co.id = c.company_id left join members o on o.id = c.owner_id`;

/**
 * One page of the contacts `where` (SQL over `c`) allows, newest first, and how many there are,
 * in one statement: the count is an uncorrelated subquery, computed once and carried by each row.
 * `prepared` is the caller's choice: a page of fixed shape (no words) is worth preparing; one with
 * words is better planned for them, as a ticket search is. `count` replaces counting the rows
 * `where` allows, for a page whose total is kept (contactTotalSql).
 */
export async function contactPage(
  db: Kysely<DB>,
  where: RawBuilder<boolean>,
  page: ListPage,
  count: RawBuilder<{ total: number }> = sql`select count(*)::int as total from contacts c where ${where}`,
): Promise<{ rows: ContactRow[]; total: number }> {
  const { marker, window } = listPageSql(page);
  const { rows } = await sql<ContactRow & { total: number }>`${marker}
    select ${contactColumns}, p.total
    from (select c.id, (${count}) as total from contacts c where ${where} order by c.created_at desc, c.id desc ${window}) p
    join contacts c on c.id = p.id
    ${contactJoins}
    order by c.created_at desc, c.id desc
  `.execute(db);
  return { rows, total: await pageTotal(db, rows, page.offset, sql<{ total: number }>`${marker} ${count}`) };
}

/** SQL: how many contacts there are, archived or not, as migration 0026 keeps the total. */
export function contactTotalSql(archived: boolean): RawBuilder<{ total: number }> {
  return sql`select coalesce(sum(n), 0)::int as total from contact_totals where archived = ${archived}`;
}

/** Contacts of one company (not archived) the member may see, by name; prepared, as every read of a company asks it. */
export async function companyContacts(db: Kysely<DB>, companyId: string): Promise<ContactRow[]> {
  const { rows } = await sql<ContactRow>`${sql.raw(PREPARE)}
    select ${contactColumns} from contacts c ${contactJoins}
    where c.company_id = ${companyId} and not c.archived
    order by lower(c.name), c.id
  `.execute(db);
  return rows;
}

/** One contact with everything ContactDetail shows, in one query; `where` (SQL over `c`) decides whether the member may see it. */
export async function findContactDetail(db: Kysely<DB>, id: string, where: RawBuilder<boolean>): Promise<ContactDetailRow | undefined> {
  const { rows } = await sql<ContactDetailRow>`
    select ${contactColumns}, c.postal_addresses, c.notes_format, c.notes_text, c.source, c.created_at::text as created_at, c.fields, c.consent,
      coalesce((select json_agg(json_build_object('address', e.address, 'label', e.label, 'primary', e.is_primary) order by e.is_primary desc, e.created_at, e.id)
                from contact_emails e where e.contact_id = c.id), '[]') as emails,
      coalesce((select json_agg(json_build_object('number', p.number, 'label', p.label, 'primary', p.is_primary) order by p.is_primary desc, p.created_at, p.id)
                from contact_phones p where p.contact_id = c.id), '[]') as phones,
      exists (select 1 from contact_emails e join members m on lower(m.email) = lower(e.address) and m.active where e.contact_id = c.id) as has_account
    from contacts c ${contactJoins}
    where c.id = ${id} and ${where}
  `.execute(db);
  return rows[0];
}

/** A contact's Contact columns; undefined when there is none or `where` hides it. `lock`: held for the transaction (a change). */
export async function findContact(db: Kysely<DB>, id: string, where: RawBuilder<boolean>, lock = false): Promise<ContactRow | undefined> {
  const { rows } = await sql<ContactRow>`
    select ${contactColumns} from contacts c ${contactJoins}
    where c.id = ${id} and ${where}
    ${lock ? sql`for update of c` : sql``}
  `.execute(db);
  return rows[0];
}

/** What a new contact is written with (the API's create and the workspace file's seeds). */
export interface NewContact {
  name: string;
  job_title: string | null;
  stage: ContactStage;
  company_id: string | null;
  owner_id: string | null;
  notes_format: string | null;
  notes_text: string | null;
  source: string;
  archived?: boolean;
  postal_addresses?: PostalAddress[];
  fields?: Record<string, string>;
  consent?: ConsentAnswer[];
}

export async function insertContact(db: Kysely<DB>, values: NewContact, now: Date): Promise<string> {
  const { postal_addresses, fields, consent, ...rest } = values;
  const row = await db
    .insertInto('contacts')
    .values({
      ...rest,
      postal_addresses: JSON.stringify(postal_addresses ?? []),
      fields: JSON.stringify(fields ?? {}),
      consent: JSON.stringify(consent ?? []),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export type ContactChange = Partial<
  Pick<NewContact, 'name' | 'job_title' | 'stage' | 'company_id' | 'owner_id' | 'notes_format' | 'notes_text'>
>;

export async function updateContactRow(db: Kysely<DB>, id: string, values: ContactChange, now: Date): Promise<void> {
  await db
    .updateTable('contacts')
    .set({ ...values, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Rewrites a contact's search document (name, job title, addresses) after a change to any of them. */
export async function refreshContactSearch(db: Kysely<DB>, id: string): Promise<void> {
  await sql`update contacts set search_vector = contact_search_document(id) where id = ${id}`.execute(db);
}

/** The contact holding an address (case-insensitive), if any. */
export async function addressHolder(db: Kysely<DB>, address: string): Promise<string | undefined> {
  const { rows } = await sql<{ contact_id: string }>`
    select contact_id from contact_emails where lower(address) = ${address.trim().toLowerCase()}
  `.execute(db);
  return rows[0]?.contact_id;
}

/** Adds an address; `primary` moves the primary flag to it. */
export async function insertEmail(
  db: Kysely<DB>,
  contactId: string,
  email: { address: string; label: EmailLabel; primary: boolean },
  now: Date,
): Promise<void> {
  if (email.primary)
    await db
      .updateTable('contact_emails')
      .set({ is_primary: false })
      .where('contact_id', '=', contactId)
      .where('is_primary', '=', true)
      .execute();
  await db
    .insertInto('contact_emails')
    .values({
      contact_id: contactId,
      address: email.address.trim(),
      label: email.label,
      is_primary: email.primary,
      created_at: now.toISOString(),
    })
    .execute();
}

/** Adds a number as written; `primary` moves the primary flag to it. */
export async function insertPhone(
  db: Kysely<DB>,
  contactId: string,
  phone: { number: string; label: PhoneLabel; primary: boolean },
  now: Date,
): Promise<void> {
  if (phone.primary)
    await db
      .updateTable('contact_phones')
      .set({ is_primary: false })
      .where('contact_id', '=', contactId)
      .where('is_primary', '=', true)
      .execute();
  await db
    .insertInto('contact_phones')
    .values({ contact_id: contactId, number: phone.number, label: phone.label, is_primary: phone.primary, created_at: now.toISOString() })
    .execute();
}

/** How many addresses and numbers a contact has: its first of each becomes primary whatever the request says. */
export async function contactChannelCounts(db: Kysely<DB>, contactId: string): Promise<{ emails: number; phones: number }> {
  const { rows } = await sql<{ emails: number; phones: number }>`
    select (select count(*)::int from contact_emails where contact_id = ${contactId}) as emails,
           (select count(*)::int from contact_phones where contact_id = ${contactId}) as phones
  `.execute(db);
  return rows[0] ?? { emails: 0, phones: 0 };
}

export async function touchContact(db: Kysely<DB>, id: string, now: Date): Promise<void> {
  await db.updateTable('contacts').set({ updated_at: now.toISOString() }).where('id', '=', id).execute();
}
