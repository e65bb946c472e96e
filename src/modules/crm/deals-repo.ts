import { sql, type Kysely, type RawBuilder } from 'kysely';
import { PREPARE } from '../../storage/prepared.ts';
import type { DB } from '../../storage/schema.ts';

/** The CRM side of a deal: its company and its people (the rest is the ticket's custom fields). */
export interface DealRow {
  ticket_id: string;
  company_id: string | null;
  company_name: string | null;
  contacts: { id: string; name: string; role: string | null; company_id: string | null }[];
}

/** The CRM side of several deals, in one query; a ticket with none of it is left out. */
export async function dealRows(db: Kysely<DB>, ticketIds: readonly string[]): Promise<DealRow[]> {
  if (ticketIds.length === 0) return [];
  const { rows } = await sql<DealRow>`
    select w.id as ticket_id, d.company_id, co.name as company_name,
      coalesce((select json_agg(json_build_object('id', c.id, 'name', c.name, 'role', dc.role, 'company_id', c.company_id) order by dc.position, c.name)
                from deal_contacts dc join contacts c on c.id = dc.contact_id where dc.ticket_id = w.id), '[]') as contacts
    from unnest(${[...ticketIds]}::uuid[]) as w(id)
    left join deals d on d.ticket_id = w.id
    left join companies co on co.id = d.company_id
  `.execute(db);
  return rows;
}

export async function dealCompanyOf(db: Kysely<DB>, ticketId: string): Promise<{ id: string; name: string } | null> {
  const { rows } = await sql<{ id: string; name: string }>`
    select co.id, co.name from deals d join companies co on co.id = d.company_id where d.ticket_id = ${ticketId}
  `.execute(db);
  return rows[0] ?? null;
}

/** The deal row of a ticket the same statement creates, on a company. */
export function dealCompanyInsert(ticketId: string, companyId: string): RawBuilder<unknown> {
  return sql`insert into deals (ticket_id, company_id) values (${ticketId}::uuid, ${companyId}::uuid)`;
}

/** Sets a deal's company (null clears it); the deal row is made on first need. */
export async function setDealCompany(db: Kysely<DB>, ticketId: string, companyId: string | null): Promise<void> {
  await db
    .insertInto('deals')
    .values({ ticket_id: ticketId, company_id: companyId })
    .onConflict((oc) => oc.column('ticket_id').doUpdateSet({ company_id: companyId }))
    .execute();
}

/** A deal as CompanyDetail lists it, with its custom fields by key. */
export interface CompanyDealRow {
  key: string;
  summary: string;
  status_name: string | null;
  status_category: 'todo' | 'in_progress' | 'done' | null;
  assignee_id: string | null;
  assignee_name: string | null;
  fields: Record<string, string> | null;
  resolved_at: string | null;
}

/** The deals of a company that `visible` (SQL over the ticket `t`) lets the member see; prepared, as every read of a company asks it. */
export async function companyDeals(db: Kysely<DB>, companyId: string, visible: RawBuilder<boolean>): Promise<CompanyDealRow[]> {
  const { rows } = await sql<CompanyDealRow>`${sql.raw(PREPARE)}
    select t.key, t.summary, s.name as status_name, s.category as status_category, t.assignee_id, a.display_name as assignee_name,
      (select json_object_agg(cf.key, fv.display) from ticket_field_values fv join custom_fields cf on cf.id = fv.field_id
       where fv.ticket_id = t.id and cf.key in ('deal_value', 'deal_currency', 'expected_close', 'probability')) as fields,
      t.resolved_at
    from deals d
    join tickets t on t.id = d.ticket_id
    join projects p on p.id = t.project_id and p.kind = 'sales'
    join statuses s on s.id = t.status_id
    left join members a on a.id = t.assignee_id
    where d.company_id = ${companyId} and ${visible}
    order by t.created_at, t.id
  `.execute(db);
  return rows;
}

/** The people on a deal: the whole list, as the workspace file states it (not changeable through the API). */
export async function setDealContacts(
  db: Kysely<DB>,
  ticketId: string,
  people: readonly { contactId: string; role: string | null }[],
): Promise<void> {
  await db.deleteFrom('deal_contacts').where('ticket_id', '=', ticketId).execute();
  if (people.length === 0) return;
  await db
    .insertInto('deal_contacts')
    .values(people.map((p, position) => ({ ticket_id: ticketId, contact_id: p.contactId, role: p.role, position })))
    .execute();
}

/** Whether a contact is one of a deal's people. */
export async function isDealContact(db: Kysely<DB>, ticketId: string, contactId: string): Promise<boolean> {
  const { rows } = await sql<{
    one: number;
  }>`select 1 as one from deal_contacts where ticket_id = ${ticketId} and contact_id = ${contactId}`.execute(db);
  return rows.length > 0;
}
