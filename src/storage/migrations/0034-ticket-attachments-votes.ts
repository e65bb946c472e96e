import { sql, type Kysely } from 'kysely';

// Attachments and votes, the browser's share of a ticket (spec 1, "Not in the API"). A file is
// kept in the database, so every node serves it and a backup holds it; its bytes live apart from
// the row a list reads (PostgreSQL keeps a large bytea out of line). The largest file an upload
// takes is the administrator's workspace setting, 25 MiB unless changed. Attachment names are
// words of the ticket's search document (spec 4.2), beside its description: whole, and split at
// hyphens, underscores and dots, so `crash-log.txt` is found by `crash`.
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

    create or replace function ticket_text_document(p_ticket uuid) returns tsvector
    language plpgsql stable as $fn$
    begin
      return (select
          search_document_within(
            setweight(to_tsvector('simple'::regconfig,
                                  search_words(t.key || ' ' || replace(t.key, '-', ' ') || ' ' || t.summary)), 'A')
              || setweight(to_tsvector('simple'::regconfig, coalesce((
                   select string_agg(l.name || ' ' || replace(l.name, '-', ' '), ' ' order by l.name)
                   from ticket_labels tl join labels l on l.id = tl.label_id where tl.ticket_id = t.id), '')), 'B'),
            coalesce(t.description_text, '') || ' ' || coalesce(t.environment_text, '') || ' ' || coalesce((
              select string_agg(v.display, ' ' order by v.field_id)
              from ticket_field_values v where v.ticket_id = t.id), '') || ' ' || coalesce((
              select string_agg(a.filename || ' ' || translate(a.filename, '-_.', '   '), ' ' order by a.created_at, a.filename)
              from ticket_attachments a where a.ticket_id = t.id), ''),
            'C')
        from tickets t where t.id = p_ticket);
    end
    $fn$;
  `.execute(db);
}
