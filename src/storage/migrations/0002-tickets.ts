import { sql, type Kysely } from 'kysely';

// Tickets and what hangs off them (spec 2.4): labels, components, versions, comments, worklogs,
// links, watchers, custom field values, and the search document kept in the same transaction.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table tickets (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects(id) on delete cascade,
      number integer not null,
      key text not null unique,
      summary text not null,
      type_id uuid not null references ticket_types(id),
      status_id uuid not null references statuses(id),
      priority_id uuid references priorities(id),
      resolution_id uuid references resolutions(id),
      assignee_id uuid references members(id),
      reporter_id uuid references members(id),
      parent_id uuid references tickets(id),
      security_level_id uuid references security_levels(id),
      request_type text,
      description_format text,
      description_text text,
      environment_format text,
      environment_text text,
      due_date date,
      original_estimate_seconds integer,
      remaining_estimate_seconds integer,
      time_spent_seconds integer,
      -- board order (fractional-indexing rank); subtasks are listed in it
      rank text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      resolved_at timestamptz,
      search_vector tsvector not null default ''::tsvector,
      unique (project_id, number)
    );
    create index tickets_updated_idx on tickets (updated_at desc, id);
    create index tickets_project_updated_idx on tickets (project_id, updated_at desc, id);
    create index tickets_created_idx on tickets (created_at desc, id);
    create index tickets_assignee_idx on tickets (assignee_id, updated_at desc);
    create index tickets_reporter_idx on tickets (reporter_id);
    create index tickets_status_idx on tickets (status_id);
    create index tickets_parent_idx on tickets (parent_id) where parent_id is not null;
    create index tickets_search_idx on tickets using gin (search_vector);

    create table ticket_labels (
      ticket_id uuid not null references tickets(id) on delete cascade,
      label_id uuid not null references labels(id) on delete cascade,
      primary key (ticket_id, label_id)
    );
    create index ticket_labels_label_idx on ticket_labels (label_id);

    create table ticket_components (
      ticket_id uuid not null references tickets(id) on delete cascade,
      component_id uuid not null references components(id) on delete cascade,
      primary key (ticket_id, component_id)
    );

    create table ticket_versions (
      ticket_id uuid not null references tickets(id) on delete cascade,
      version_id uuid not null references versions(id) on delete cascade,
      kind text not null check (kind in ('fix', 'affected')),
      primary key (ticket_id, version_id, kind)
    );

    create table ticket_watchers (
      ticket_id uuid not null references tickets(id) on delete cascade,
      member_id uuid not null references members(id) on delete cascade,
      primary key (ticket_id, member_id)
    );

    -- one row per link, read forwards from the source (outward) and backwards from the target (inward)
    create table ticket_links (
      id uuid primary key default gen_random_uuid(),
      source_id uuid not null references tickets(id) on delete cascade,
      target_id uuid not null references tickets(id) on delete cascade,
      outward text not null,
      inward text not null,
      created_at timestamptz not null default now()
    );
    create index ticket_links_source_idx on ticket_links (source_id);
    create index ticket_links_target_idx on ticket_links (target_id);

    create table ticket_field_values (
      ticket_id uuid not null references tickets(id) on delete cascade,
      field_id uuid not null references custom_fields(id) on delete cascade,
      value jsonb not null,
      -- the value as the ticket page shows it: presented and searched
      display text not null,
      primary key (ticket_id, field_id)
    );

    create table comments (
      id uuid primary key default gen_random_uuid(),
      ticket_id uuid not null references tickets(id) on delete cascade,
      author_id uuid references members(id),
      body_format text not null default 'markdown',
      body_text text not null,
      visibility text not null default 'public' check (visibility in ('public', 'internal', 'restricted')),
      restricted_role_id uuid references roles(id),
      restricted_group_id uuid references groups(id),
      created_at timestamptz not null default now(),
      edited_at timestamptz,
      search_vector tsvector generated always as (to_tsvector('simple'::regconfig, body_text)) stored,
      check ((visibility = 'restricted') = (num_nonnulls(restricted_role_id, restricted_group_id) = 1))
    );
    create index comments_ticket_idx on comments (ticket_id, created_at);
    -- restricted comments are searched separately, where the member may read them
    create index comments_restricted_search_idx on comments using gin (search_vector) where visibility = 'restricted';

    create table worklogs (
      id uuid primary key default gen_random_uuid(),
      ticket_id uuid not null references tickets(id) on delete cascade,
      author_id uuid references members(id),
      started_at timestamptz not null,
      time_spent_seconds integer not null check (time_spent_seconds > 0),
      body_format text,
      body_text text,
      created_at timestamptz not null default now(),
      edited_at timestamptz
    );
    create index worklogs_ticket_idx on worklogs (ticket_id, started_at desc);
    create index worklogs_author_idx on worklogs (author_id, started_at);

    -- The search document of one ticket: key and summary weigh most, then labels, then the texts,
    -- then comments that every member of the project may read (restricted ones are searched apart).
    create function ticket_search_document(p_ticket uuid) returns tsvector
    language sql stable as $fn$
      select
        setweight(to_tsvector('simple'::regconfig, t.key || ' ' || replace(t.key, '-', ' ') || ' ' || t.summary), 'A')
        || setweight(to_tsvector('simple'::regconfig, coalesce((
             select string_agg(l.name || ' ' || replace(l.name, '-', ' '), ' ')
             from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id), '')), 'B')
        || setweight(to_tsvector('simple'::regconfig,
             coalesce(t.description_text, '') || ' ' || coalesce(t.environment_text, '') || ' ' || coalesce((
             select string_agg(v.display, ' ') from ticket_field_values v where v.ticket_id = t.id), '')), 'C')
        || setweight(to_tsvector('simple'::regconfig, coalesce((
             select string_agg(c.body_text, ' ') from comments c
             where c.ticket_id = t.id and c.visibility <> 'restricted'), '')), 'D')
      from tickets t where t.id = p_ticket
    $fn$;
  `.execute(db);
}
