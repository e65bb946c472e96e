import { sql, type Kysely } from 'kysely';

// Boards and sprints (spec 2.5, 3.1): boards, their projects and columns come from the workspace
// file; sprints and sprint membership change through the API.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table boards (
      id uuid primary key default gen_random_uuid(),
      number integer not null unique check (number > 0),
      name text not null,
      kind text not null check (kind in ('scrum', 'kanban')),
      owner_id uuid references members(id),
      -- a board drawing from every project of the workspace, present and future
      all_projects boolean not null default false,
      -- null keeps done tickets on the board always
      done_retention_days integer check (done_retention_days >= 0),
      created_at timestamptz not null default now()
    );

    create table board_projects (
      board_id uuid not null references boards(id) on delete cascade,
      project_id uuid not null references projects(id) on delete cascade,
      position integer not null,
      primary key (board_id, project_id)
    );
    create index board_projects_project_idx on board_projects (project_id);

    create table board_columns (
      id uuid primary key default gen_random_uuid(),
      board_id uuid not null references boards(id) on delete cascade,
      position integer not null,
      name text,
      -- status names (workflows differ by project; a ticket is in the column naming its status)
      statuses text[] not null default '{}',
      min_tickets integer,
      max_tickets integer,
      unique (board_id, position)
    );

    create table sprints (
      id uuid primary key default gen_random_uuid(),
      board_id uuid not null references boards(id) on delete cascade,
      name text not null,
      goal text,
      state text not null default 'future' check (state in ('future', 'active', 'closed')),
      start_at timestamptz,
      end_at timestamptz,
      completed_at timestamptz,
      position integer not null,
      created_at timestamptz not null default now()
    );
    -- spec 3.1: a board runs one active sprint at a time, whatever process starts it
    create unique index sprints_one_active_per_board on sprints (board_id) where state = 'active';
    create unique index sprints_name_per_board on sprints (board_id, lower(name));
    create index sprints_board_idx on sprints (board_id, position);

    create table sprint_tickets (
      sprint_id uuid not null references sprints(id) on delete cascade,
      ticket_id uuid not null references tickets(id) on delete cascade,
      board_id uuid not null references boards(id) on delete cascade,
      -- true while the sprint is future or active; done tickets stay in a closed sprint with false
      open boolean not null default true,
      primary key (sprint_id, ticket_id)
    );
    -- spec 3.1: a ticket is in at most one open sprint of a board
    create unique index sprint_tickets_one_open_sprint on sprint_tickets (board_id, ticket_id) where open;
    create index sprint_tickets_ticket_idx on sprint_tickets (ticket_id);

    -- Ranks are fractional-indexing keys, compared byte by byte whatever the database's collation.
    alter table tickets alter column rank type text collate "C";
    create index tickets_rank_idx on tickets (rank);
    create index tickets_project_rank_idx on tickets (project_id, rank);

    -- A new ticket goes to the bottom of every board and backlog: the key after the highest rank
    -- (fractional-indexing's incrementInteger on the integer part), so creating needs no renumbering.
    create function next_ticket_rank() returns text
    language plpgsql as $fn$
    declare
      alphabet constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
      top text;
      head text;
      n integer;
      digit integer;
      digits text := '';
      carry boolean := true;
    begin
      select max(rank) into top from tickets;
      if top is null then return 'a0'; end if;
      head := substr(top, 1, 1);
      n := case when ascii(head) between 97 and 122 then ascii(head) - ascii('a') + 1 else ascii('Z') - ascii(head) + 1 end;
      for i in reverse n..1 loop
        digit := strpos(alphabet, substr(top, i + 1, 1)) - 1;
        if carry then
          digit := digit + 1;
          if digit = 62 then digit := 0; else carry := false; end if;
        end if;
        digits := substr(alphabet, digit + 1, 1) || digits;
      end loop;
      if not carry then return head || digits; end if;
      if head = 'Z' then return 'a0'; end if;
      if head = 'z' then raise exception 'ticket rank space exhausted'; end if;
      if ascii(head) between 97 and 121 then return chr(ascii(head) + 1) || digits || '0'; end if;
      return chr(ascii(head) + 1) || substr(digits, 2);
    end
    $fn$;

    create function set_ticket_rank() returns trigger
    language plpgsql as $fn$
    begin
      new.rank := next_ticket_rank();
      return new;
    end
    $fn$;

    create trigger tickets_rank_on_insert before insert on tickets
      for each row when (new.rank is null) execute function set_ticket_rank();
  `.execute(db);
}
