import { sql, type Kysely } from 'kysely';

// Workspace structure (members, roles, projects, workflows), tokens and the history table.
// Everything declared by the workspace file lives here; later modules add their own migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table workspace_settings (
      id smallint primary key default 1 check (id = 1),
      name text not null default 'Atrium',
      rest_api boolean not null default false,
      mcp boolean not null default false,
      module_boards boolean not null default true,
      module_sprints boolean not null default true,
      module_helpdesk boolean not null default true,
      module_knowledge boolean not null default true,
      module_time boolean not null default true,
      module_crm boolean not null default true,
      default_priority text,
      config_version bigint not null default 1,
      updated_at timestamptz not null default now()
    );

    create table members (
      id uuid primary key default gen_random_uuid(),
      display_name text not null,
      username text not null,
      email text,
      password_hash text,
      is_admin boolean not null default false,
      active boolean not null default true,
      timezone text not null default 'UTC',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index members_email_key on members (lower(email)) where email is not null;
    create unique index members_username_key on members (lower(username));

    create table groups (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      created_at timestamptz not null default now()
    );
    create unique index groups_name_key on groups (lower(name));

    create table group_members (
      group_id uuid not null references groups(id) on delete cascade,
      member_id uuid not null references members(id) on delete cascade,
      primary key (group_id, member_id)
    );

    create table roles (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      permissions text[] not null default '{}',
      created_at timestamptz not null default now()
    );
    create unique index roles_name_key on roles (lower(name));

    create table workflows (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      created_at timestamptz not null default now()
    );
    create unique index workflows_name_key on workflows (lower(name));

    create table statuses (
      id uuid primary key default gen_random_uuid(),
      workflow_id uuid not null references workflows(id) on delete cascade,
      name text not null,
      category text check (category in ('todo', 'in_progress', 'done')),
      position integer not null
    );
    create unique index statuses_name_key on statuses (workflow_id, lower(name));

    create table transitions (
      id uuid primary key default gen_random_uuid(),
      workflow_id uuid not null references workflows(id) on delete cascade,
      name text not null,
      from_status_ids uuid[],
      to_status_id uuid not null references statuses(id),
      conditions jsonb not null default '[]',
      validators jsonb not null default '[]',
      screen jsonb not null default '{}',
      position integer not null
    );
    create unique index transitions_name_key on transitions (workflow_id, lower(name));

    create table projects (
      id uuid primary key default gen_random_uuid(),
      key text not null unique,
      name text not null,
      kind text not null check (kind in ('software', 'helpdesk', 'business', 'sales')),
      description text,
      lead_id uuid references members(id),
      default_assignee_id uuid references members(id),
      next_ticket_number integer not null default 1,
      position integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table ticket_types (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      name text not null,
      workflow_id uuid not null references workflows(id),
      is_subtask boolean not null default false,
      position integer not null
    );
    create unique index ticket_types_name_key on ticket_types (project_id, lower(name));

    create table priorities (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      name text not null,
      position integer not null
    );
    create unique index priorities_name_key on priorities (project_id, lower(name));

    create table resolutions (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      name text not null,
      is_default boolean not null default false,
      position integer not null
    );
    create unique index resolutions_name_key on resolutions (project_id, lower(name));

    create table components (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      name text not null,
      default_assignee_id uuid references members(id),
      archived boolean not null default false,
      position integer not null
    );
    create unique index components_name_key on components (project_id, lower(name));

    create table versions (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      name text not null,
      archived boolean not null default false,
      released boolean not null default false,
      position integer not null
    );
    create unique index versions_name_key on versions (project_id, lower(name));

    create table labels (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      name text not null,
      archived boolean not null default false,
      created_at timestamptz not null default now()
    );
    create unique index labels_name_key on labels (project_id, name);

    create table security_levels (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      name text not null,
      position integer not null
    );
    create unique index security_levels_name_key on security_levels (project_id, lower(name));

    -- who may see a level: exactly one of member, group or role per row
    create table security_level_grants (
      id uuid primary key default gen_random_uuid(),
      level_id uuid not null references security_levels(id) on delete cascade,
      member_id uuid references members(id) on delete cascade,
      group_id uuid references groups(id) on delete cascade,
      role_id uuid references roles(id) on delete cascade,
      check (num_nonnulls(member_id, group_id, role_id) = 1)
    );

    create table custom_fields (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      key text not null,
      name text not null,
      type text not null check (type in ('text', 'number', 'date', 'select', 'multi_select', 'person')),
      choices text[] not null default '{}',
      ticket_types text[] not null default '{}',
      position integer not null
    );
    create unique index custom_fields_key_key on custom_fields (project_id, lower(key));

    -- a role held in a project by a member or a group
    create table project_roles (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      role_id uuid not null references roles(id) on delete cascade,
      member_id uuid references members(id) on delete cascade,
      group_id uuid references groups(id) on delete cascade,
      check (num_nonnulls(member_id, group_id) = 1)
    );
    create unique index project_roles_key on project_roles
      (project_id, role_id, coalesce(member_id, group_id));

    create table tokens (
      id uuid primary key default gen_random_uuid(),
      member_id uuid not null references members(id) on delete cascade,
      kind text not null check (kind in ('personal', 'oauth')),
      name text not null,
      access text not null check (access in ('read', 'write')),
      token_hash text not null unique,
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index tokens_member_idx on tokens (member_id);

    create table history (
      id uuid primary key default gen_random_uuid(),
      entity_type text not null,
      entity_id uuid not null,
      kind text not null,
      actor_id uuid references members(id),
      via text,
      at timestamptz not null default now(),
      changes jsonb not null default '[]'
    );
    create index history_entity_idx on history (entity_type, entity_id, at);
    create index history_actor_idx on history (actor_id, at) where via is not null;

    create table notifications (
      id uuid primary key default gen_random_uuid(),
      member_id uuid not null references members(id) on delete cascade,
      entity_type text not null,
      entity_id uuid not null,
      kind text not null,
      payload jsonb not null default '{}',
      created_at timestamptz not null default now(),
      delivered_at timestamptz
    );
    create index notifications_pending_idx on notifications (created_at) where delivered_at is null;
  `.execute(db);
}
