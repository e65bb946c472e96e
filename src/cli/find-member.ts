import type { Kysely, Selectable } from 'kysely';
import { resolveName } from '../core/names.ts';
import type { DB, MembersTable } from '../storage/schema.ts';

export type MemberRow = Pick<Selectable<MembersTable>, 'id' | 'display_name' | 'username' | 'email' | 'active' | 'is_admin'>;

/** A member by email address, display name or username; a miss lists up to 25 candidates. */
export async function findMember(db: Kysely<DB>, given: string): Promise<MemberRow> {
  const members = await db
    .selectFrom('members')
    .select(['id', 'display_name', 'username', 'email', 'active', 'is_admin'])
    .orderBy('display_name')
    .execute();
  return resolveName(members, given, {
    pointer: '--member',
    what: 'member',
    names: (m) => [m.email ?? '', m.display_name, m.username].filter((n) => n !== ''),
    display: (m) => m.email ?? m.display_name,
  });
}

export function describeMember(member: MemberRow): string {
  return member.email ? `${member.display_name} <${member.email}>` : member.display_name;
}
