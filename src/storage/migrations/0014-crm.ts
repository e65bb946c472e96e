import { sql, type Kysely } from 'kysely';

// The CRM (spec 2.9, 3.6, 3.7, 4.7): companies, contacts with their addresses and phones, CRM
// roles per member or group (the whole CRM, or one company), deals' companies and people, and
// interactions with their follow-ups.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Words for search: addresses, domains and hyphenated names split into their parts, so
    -- "anna", "acme" and "example" each find anna@acme.example.
    create function crm_words(body text) returns text
    language sql immutable parallel safe as $fn$ select translate(coalesce(body, ''), '@.-_+/:<>', '         ') $fn$;

    create function crm_company_document(p_name text, p_industry text, p_domains text[]) returns tsvector
    language sql immutable parallel safe as $fn$
      select to_tsvector('simple'::regconfig, crm_words(p_name || ' ' || coalesce(p_industry, '') || ' ' || array_to_string(p_domains, ' ')))
    $fn$;

    create table companies (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      domains text[] not null default '{}',
      stage text not null default 'lead' check (stage in ('lead', 'prospect', 'customer', 'former')),
      industry text,
      size text check (size in ('1-10', '11-50', '51-200', '201-1000', '1000+')),
      website text,
      owner_id uuid references members(id) on delete set null,
      -- the administrator's, set in the browser (the workspace file for now), never through the API
      customer boolean not null default false,
      archived boolean not null default false,
      description_format text,
      description_text text,
      search_vector tsvector generated always as (crm_company_document(name, industry, domains)) stored,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    -- GET /companies/{id} takes a name too, so a name names one company
    create unique index companies_name_key on companies (lower(name));
    -- without a pending list: a search never scans entries not yet merged (contacts and companies
    -- are written far less often than searched; a bulk import left searches 15× slower until vacuum)
    create index companies_search_idx on companies using gin (search_vector) with (fastupdate = off);
    create index companies_owner_idx on companies (owner_id) where owner_id is not null;

    create table contacts (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      job_title text,
      stage text not null default 'lead' check (stage in ('lead', 'qualified', 'customer', 'former')),
      company_id uuid references companies(id) on delete set null,
      owner_id uuid references members(id) on delete set null,
      notes_format text,
      notes_text text,
      source text not null default 'api',
      archived boolean not null default false,
      -- [{label, lines}]; recorded in the browser (the workspace file for now)
      postal_addresses jsonb not null default '[]',
      -- custom fields by field name, as text
      fields jsonb not null default '{}',
      -- every answer [{purpose, granted, recorded_at}]; the latest per purpose is shown
      consent jsonb not null default '[]',
      -- name, job title and addresses (contact_search_document), written with every change to them
      search_vector tsvector not null default ''::tsvector,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index contacts_list_idx on contacts (archived, created_at desc, id desc);
    create index contacts_company_idx on contacts (company_id, archived, created_at desc) where company_id is not null;
    create index contacts_owner_idx on contacts (owner_id) where owner_id is not null;
    create index contacts_search_idx on contacts using gin (search_vector) with (fastupdate = off);

    create table contact_emails (
      id uuid primary key default gen_random_uuid(),
      contact_id uuid not null references contacts(id) on delete cascade,
      address text not null,
      label text not null default 'work' check (label in ('work', 'home', 'other')),
      is_primary boolean not null default false,
      created_at timestamptz not null default now()
    );
    -- an email address belongs to one contact in the workspace (spec 4.7), whatever its case
    create unique index contact_emails_address_key on contact_emails (lower(address));
    create unique index contact_emails_primary_key on contact_emails (contact_id) where is_primary;
    create index contact_emails_contact_idx on contact_emails (contact_id, created_at);

    create table contact_phones (
      id uuid primary key default gen_random_uuid(),
      contact_id uuid not null references contacts(id) on delete cascade,
      number text not null,
      label text not null default 'work' check (label in ('work', 'home', 'mobile', 'other')),
      is_primary boolean not null default false,
      created_at timestamptz not null default now()
    );
    create unique index contact_phones_primary_key on contact_phones (contact_id) where is_primary;
    create index contact_phones_contact_idx on contact_phones (contact_id, created_at);

    create function contact_search_document(p_contact uuid) returns tsvector
    language sql stable as $fn$
      select to_tsvector('simple'::regconfig, crm_words(c.name || ' ' || coalesce(c.job_title, '') || ' ' || coalesce((
        select string_agg(e.address, ' ') from contact_emails e where e.contact_id = c.id), '')))
      from contacts c where c.id = p_contact
    $fn$;

    -- Who holds which role in the CRM: the whole CRM (company_id null) or one company. The role's
    -- crm:view, crm:edit and crm:manage apply there; its other permissions are for projects.
    create table crm_roles (
      id uuid primary key default gen_random_uuid(),
      role_id uuid not null references roles(id) on delete cascade,
      member_id uuid references members(id) on delete cascade,
      group_id uuid references groups(id) on delete cascade,
      company_id uuid references companies(id) on delete cascade,
      check (num_nonnulls(member_id, group_id) = 1)
    );
    create unique index crm_roles_key on crm_roles
      (role_id, coalesce(member_id, group_id), coalesce(company_id, '00000000-0000-0000-0000-000000000000'::uuid));
    create index crm_roles_member_idx on crm_roles (member_id) where member_id is not null;
    create index crm_roles_group_idx on crm_roles (group_id) where group_id is not null;

    -- A deal is a ticket of a sales project (spec 1); its company and its people live here, its
    -- value, currency, expected close, probability and lost reason in the ticket's custom fields.
    create table deals (
      ticket_id uuid primary key references tickets(id) on delete cascade,
      company_id uuid references companies(id) on delete set null
    );
    create index deals_company_idx on deals (company_id) where company_id is not null;

    create table deal_contacts (
      ticket_id uuid not null references tickets(id) on delete cascade,
      contact_id uuid not null references contacts(id) on delete cascade,
      role text,
      position integer not null default 0,
      primary key (ticket_id, contact_id)
    );
    create index deal_contacts_contact_idx on deal_contacts (contact_id);

    create table interactions (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (kind in ('note', 'call', 'meeting', 'email', 'task')),
      subject text not null,
      body_format text not null default 'markdown',
      body_text text not null default '',
      occurred_at timestamptz not null,
      duration_seconds integer not null default 0,
      -- null for a message a contact sent
      author_id uuid references members(id) on delete set null,
      contact_id uuid references contacts(id) on delete set null,
      company_id uuid references companies(id) on delete set null,
      ticket_id uuid references tickets(id) on delete cascade,
      due_at timestamptz,
      assignee_id uuid references members(id) on delete set null,
      done_at timestamptz,
      email boolean not null default false,
      created_at timestamptz not null default now()
    );
    create index interactions_contact_idx on interactions (contact_id, occurred_at desc) where contact_id is not null;
    create index interactions_company_idx on interactions (company_id, occurred_at desc) where company_id is not null;
    create index interactions_ticket_idx on interactions (ticket_id, occurred_at desc) where ticket_id is not null;
    create index interactions_open_tasks_idx on interactions (assignee_id, due_at) where kind = 'task' and done_at is null;
  `.execute(db);
}
