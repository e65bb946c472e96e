import { sql, type Kysely } from 'kysely';

// Time tracking (spec 2.8, 3.3, 4.6): organizations (customers), contracts and billing phases,
// declared in the workspace file; activities, each a member's own, running until it has an end.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table organizations (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      domains text[] not null default '{}',
      created_at timestamptz not null default now()
    );
    create unique index organizations_name_idx on organizations (lower(name));

    create table contracts (
      id uuid primary key default gen_random_uuid(),
      name text not null
    );
    create unique index contracts_name_idx on contracts (lower(name));

    create table phases (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      start_date date not null,
      end_date date not null,
      contract_id uuid references contracts(id),
      customer_id uuid references organizations(id),
      project_id uuid references projects(id),
      rate numeric(12, 2),
      currency text,
      max_days_available integer,
      hours_per_day numeric(5, 2) not null default 8,
      -- a closed phase has been billed: its activities are locked
      closed boolean not null default false,
      check (end_date >= start_date)
    );
    create unique index phases_name_idx on phases (lower(name));

    create table activities (
      id uuid primary key default gen_random_uuid(),
      member_id uuid not null references members(id),
      description text,
      started_at timestamptz not null,
      -- null while running
      ended_at timestamptz,
      -- kept by the database, so reports sum a column instead of computing each row's length
      seconds integer generated always as (extract(epoch from ended_at - started_at)::integer) stored,
      tags text[] not null default '{}',
      project_id uuid references projects(id),
      customer_id uuid references organizations(id),
      ticket_id uuid references tickets(id),
      note text,
      billable boolean not null default true,
      -- the worklog a finished activity puts on its ticket (kept in step with it)
      worklog_id uuid references worklogs(id) on delete set null,
      created_at timestamptz not null default now(),
      edited_at timestamptz,
      deleted_at timestamptz,
      check (ended_at is null or ended_at >= started_at)
    );
    -- at most one running activity per member, whatever races
    create unique index activities_running_idx on activities (member_id) where ended_at is null and deleted_at is null;
    create index activities_member_idx on activities (member_id, started_at desc) where deleted_at is null;
    create index activities_started_idx on activities (started_at) where deleted_at is null;
    create index activities_project_idx on activities (project_id, started_at) where deleted_at is null;
  `.execute(db);
}
