import { sql, type Kysely } from 'kysely';

// Helpdesk forms (spec 2.6, 3.4, 4.4) and the workspace audit log their changes are written to.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table request_types (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      key text not null,
      name text not null,
      description text,
      help_text text,
      portal_group text,
      hidden boolean not null default false,
      submission text not null default 'authenticated' check (submission in ('authenticated', 'open')),
      -- a type the project uses; deleting the type (workspace file) is blocked while a form names it
      ticket_type_id uuid references ticket_types(id) on delete set null,
      -- portal order: a fractional-indexing key, compared byte by byte whatever the collation
      rank text collate "C" not null,
      archived boolean not null default false,
      -- [{field, displayed, required, label}] in form order; names are read from the project
      fields jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    -- keys and active names name a form in paths and in POST /tickets, so neither may be ambiguous
    create unique index request_types_key_per_project on request_types (project_id, lower(key));
    create unique index request_types_active_name_per_project on request_types (project_id, lower(name)) where not archived;
    create index request_types_project_rank_idx on request_types (project_id, archived, rank);

    -- The form a ticket was raised through; tickets.request_type keeps its name (renames follow
    -- it), so the ticket read path shows a retired or renamed form without a join.
    alter table tickets add column request_type_id uuid references request_types(id);
    create index tickets_request_type_idx on tickets (request_type_id) where request_type_id is not null;

    -- The workspace audit log (spec 4.4): configuration changes, with who made them and through
    -- which token or application. There is no API to read it.
    create table audit_log (
      id uuid primary key default gen_random_uuid(),
      at timestamptz not null default now(),
      actor_id uuid references members(id),
      -- the token's name (an application's name for an OAuth token), as history shows it
      via text,
      action text not null,
      target_type text not null,
      target_id uuid,
      -- the target as people name it, e.g. 'HELP request type wifi-access'
      target text not null,
      project_id uuid references projects(id) on delete set null,
      changes jsonb not null default '[]'
    );
    create index audit_log_at_idx on audit_log (at desc);
    create index audit_log_target_idx on audit_log (target_type, target_id);
  `.execute(db);
}
