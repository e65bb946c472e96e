import { sql, type Kysely } from 'kysely';

// The operator's switch (spec 5.6): a workspace the hosting service made read-only refuses every
// change. Read with the other settings and the token, so every node obeys it at the next request.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table workspace_settings add column read_only boolean not null default false`.execute(db);
}
