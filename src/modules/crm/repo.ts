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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID (ids in paths and arguments; anything else names nothing). */
export const isUuid = (value: string): boolean => UUID.test(value.trim());

/** Words and their beginnings (`word:*`), all required, as the search documents split them (crm_words); null: no words. */
export function prefixQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length ? words.slice(0, 16).map((w) => `${w}:*`).join(' & ') : null;
}

/** Serializes writes that claim one email address, so two contacts never both get it (the unique index is the last guard). */
export async function lockAddress(db: Kysely<DB>, address: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(7245014, hashtext(${address.trim().toLowerCase()}))`.execute(db);
}
