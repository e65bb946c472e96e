import { isUuid as isUuidText } from '../../core/schema-kit.ts';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

/** One CRM role a member holds (directly or through a group): where (null: the whole CRM) and what its role grants. */
export interface CrmGrantRow {
  company_id: string | null;
  permissions: string[];
}

/** Every CRM role the member holds, in one round trip. */
export async function crmGrantRows(db: Kysely<DB>, memberId: string): Promise<CrmGrantRow[]> {
  const { rows } = await sql<CrmGrantRow>`
    select cr.company_id, r.permissions
    from crm_roles cr join roles r on r.id = cr.role_id
    where cr.member_id = ${memberId}
       or cr.group_id in (select group_id from group_members where member_id = ${memberId})
  `.execute(db);
  return rows;
}

/** Whether a string is a UUID (ids in paths and arguments; anything else names nothing). */
export const isUuid = (value: string): boolean => isUuidText(value.trim());

// Words and their beginnings for the CRM's search: the same rule as the tickets' and pages'.
export { prefixQuery } from '../../core/search-words.ts';

/** Serializes writes that claim one email address, so two contacts never both get it (the unique index is the last guard). */
export async function lockAddress(db: Kysely<DB>, address: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(7245014, hashtext(${address.trim().toLowerCase()}))`.execute(db);
}
