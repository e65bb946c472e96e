import { sql, type Kysely } from 'kysely';

// Events that reach people (ADR 0022): notifications a member reads and marks read, delivered by
// email when the operator configures it (claimed once across nodes, retried with backoff, failures
// kept); reminders that fire at their time; and a live event after every committed change, so open
// pages update without a reload.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table notifications add column read_at timestamptz;
    -- none: no email wanted (mail not configured, or the member turned it off); queued → sending → sent, or failed
    alter table notifications add column email_state text not null default 'none'
      check (email_state in ('none', 'queued', 'sending', 'sent', 'failed'));
    alter table notifications add column email_attempts integer not null default 0;
    alter table notifications add column email_next_at timestamptz;
    alter table notifications add column email_claimed_at timestamptz;
    alter table notifications add column email_error text;
    create index notifications_member_idx on notifications (member_id, read_at, created_at desc);
    create index notifications_email_idx on notifications (email_next_at nulls first, created_at) where email_state in ('queued', 'sending');

    alter table members add column email_notifications boolean not null default true;

    create table reminders (
      id uuid primary key default gen_random_uuid(),
      member_id uuid not null references members(id) on delete cascade,
      entity_type text not null,
      entity_id uuid not null,
      kind text not null,
      payload jsonb not null default '{}',
      due_at timestamptz not null,
      fired_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index reminders_due_idx on reminders (due_at) where fired_at is null;
    create index reminders_entity_idx on reminders (entity_type, entity_id);

    -- Every recorded change announces itself once its transaction commits (NOTIFY is delivered at
    -- commit, and not at all on rollback), to every node listening on the same database.
    create function history_event() returns trigger language plpgsql as $fn$
    begin
      perform pg_notify('atrium_events', json_build_object('entity_type', new.entity_type, 'entity_id', new.entity_id, 'kind', new.kind)::text);
      return null;
    end
    $fn$;
    create trigger history_event after insert on history for each row execute function history_event();

    -- The assignee watches the ticket (spec 6: the reporter and the assignee watch),
    -- however it was assigned: created, changed, transitioned, a card move, a seed.
    create function assignee_watches() returns trigger language plpgsql as $fn$
    begin
      if new.assignee_id is not null then
        insert into ticket_watchers (ticket_id, member_id) values (new.id, new.assignee_id) on conflict do nothing;
      end if;
      return null;
    end
    $fn$;
    create trigger assignee_watches after insert or update of assignee_id on tickets
      for each row execute function assignee_watches();
  `.execute(db);
}
