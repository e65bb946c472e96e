import { sql } from 'kysely';
import type { Context } from '../../core/context.ts';
import { contactVisibleSql } from './contacts-read.ts';
import { interactionVisibleSql } from './interactions.ts';
import { companyVisibleSql, crmAccess, isOpen } from './policy.ts';

export type CrmRecordKind = 'contact' | 'company' | 'interaction';

export interface NamedCrmRecord {
  kind: CrmRecordKind;
  name: string;
  /** The page that shows it (an interaction: its contact's). */
  path: string;
}

/**
 * CRM records by id, named, among those the member may see now (as get_contact, get_company and
 * list_interactions decide); the others are left out. For the pages' account of what agents did.
 */
export async function crmRecordsNamed(
  ctx: Context,
  ids: Readonly<Record<CrmRecordKind, readonly string[]>>,
): Promise<Map<string, NamedCrmRecord>> {
  const named = new Map<string, NamedCrmRecord>();
  const access = await crmAccess(ctx);
  if (!isOpen(access)) return named;
  if (ids.contact.length) {
    const { rows } = await sql<{ id: string; name: string }>`
      select c.id, c.name from contacts c where c.id = any(${[...ids.contact]}::uuid[]) and ${contactVisibleSql(access)}
    `.execute(ctx.db);
    for (const row of rows) named.set(row.id, { kind: 'contact', name: row.name, path: `/crm/contacts/${row.id}` });
  }
  if (ids.company.length) {
    const { rows } = await sql<{ id: string; name: string }>`
      select c.id, c.name from companies c where c.id = any(${[...ids.company]}::uuid[]) and ${companyVisibleSql(access, 'c.id')}
    `.execute(ctx.db);
    for (const row of rows) named.set(row.id, { kind: 'company', name: row.name, path: `/crm/companies/${row.id}` });
  }
  if (ids.interaction.length) {
    const { rows } = await sql<{ id: string; subject: string; contact_id: string | null }>`
      select i.id, i.subject, i.contact_id from interactions i left join tickets tk on tk.id = i.ticket_id
      where i.id = any(${[...ids.interaction]}::uuid[]) and ${await interactionVisibleSql(ctx, access)}
    `.execute(ctx.db);
    for (const row of rows)
      named.set(row.id, { kind: 'interaction', name: row.subject, path: row.contact_id ? `/crm/contacts/${row.contact_id}` : '/crm' });
  }
  return named;
}
