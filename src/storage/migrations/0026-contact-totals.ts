import { sql, type Kysely } from 'kysely';

// Every page of GET /contacts answers with its total, and a member who sees the whole CRM, with
// no filter, counted every contact: 50,000 index entries on each page, about three quarters of
// the list's time on the bench (914 → 3,461 req/s without it; ADR 0043). The totals are kept
// here instead, archived and not apart, by triggers on contacts, in the writing transaction, so a
// rolled-back write leaves them as they were. Each transaction adds to one of eight slots (its id
// picks it), so concurrent creates do not queue on one row; a total is the sum of its slots.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contact_totals (
      archived boolean not null,
      slot smallint not null,
      n bigint not null,
      primary key (archived, slot)
    );
    insert into contact_totals (archived, slot, n) select archived, 0, count(*) from contacts group by archived;

    -- p_changes: (archived, change) rows, written in archived order so two writers lock alike
    create function contact_totals_add(p_changes jsonb) returns void language sql volatile as $fn$
      insert into contact_totals (archived, slot, n)
      select (c->>'archived')::boolean, (txid_current() % 8)::smallint, sum((c->>'n')::bigint)
      from jsonb_array_elements(p_changes) c
      group by 1 order by 1
      on conflict (archived, slot) do update set n = contact_totals.n + excluded.n
    $fn$;

    create function contacts_inserted() returns trigger language plpgsql as $fn$
    begin
      perform contact_totals_add((select jsonb_agg(jsonb_build_object('archived', archived, 'n', 1)) from new_rows));
      return null;
    end
    $fn$;

    create function contacts_deleted() returns trigger language plpgsql as $fn$
    begin
      perform contact_totals_add((select jsonb_agg(jsonb_build_object('archived', archived, 'n', -1)) from old_rows));
      return null;
    end
    $fn$;

    create function contact_archived_changed() returns trigger language plpgsql as $fn$
    begin
      perform contact_totals_add(jsonb_build_array(
        jsonb_build_object('archived', old.archived, 'n', -1), jsonb_build_object('archived', new.archived, 'n', 1)));
      return null;
    end
    $fn$;

    create function contacts_truncated() returns trigger language plpgsql as $fn$
    begin
      delete from contact_totals;
      return null;
    end
    $fn$;

    create trigger contacts_counted_in after insert on contacts
      referencing new table as new_rows for each statement execute function contacts_inserted();
    create trigger contacts_counted_out after delete on contacts
      referencing old table as old_rows for each statement execute function contacts_deleted();
    create trigger contacts_counted_moved after update of archived on contacts
      for each row when (old.archived is distinct from new.archived) execute function contact_archived_changed();
    create trigger contacts_counted_truncated after truncate on contacts
      for each statement execute function contacts_truncated();
  `.execute(db);
}
