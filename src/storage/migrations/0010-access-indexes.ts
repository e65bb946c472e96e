import { sql, type Kysely } from 'kysely';

// Every request reads the member's grants and security levels through group membership and
// project roles; without these, each visibility check scanned group_members by member.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index group_members_member_idx on group_members (member_id);
    create index project_roles_member_idx on project_roles (member_id) where member_id is not null;
    create index project_roles_group_idx on project_roles (group_id) where group_id is not null;
  `.execute(db);
}
