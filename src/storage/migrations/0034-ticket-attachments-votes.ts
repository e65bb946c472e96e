import { sql, type Kysely } from 'kysely';

// Attachments and votes, the browser's share of a ticket (spec 1, "Not in the API"). A file is
// kept in the database, so every node serves it and a backup holds it; its bytes live apart from
// the row a list reads (PostgreSQL keeps a large bytea out of line). The largest file an upload
// takes is the administrator's workspace setting, 25 MiB unless changed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table workspace_settings add column attachment_max_bytes integer not null default 26214400
      check (attachment_max_bytes between 1 and 1073741824);

    create table ticket_attachments (
      id uuid primary key default gen_random_uuid(),
      ticket_id uuid not null references tickets(id) on delete cascade,
      filename text not null,
      content_type text not null,
      size_bytes integer not null,
      content bytea not null,
      uploaded_by uuid references members(id),
      created_at timestamptz not null default now()
    );
    create index ticket_attachments_ticket_idx on ticket_attachments (ticket_id, created_at);

    create table ticket_votes (
      ticket_id uuid not null references tickets(id) on delete cascade,
      member_id uuid not null references members(id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (ticket_id, member_id)
    );
  `.execute(db);
}
