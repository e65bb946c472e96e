import { sql, type Kysely } from 'kysely';

// Board administration (spec 1, done in the browser): the filter that, with its projects, chooses
// a board's tickets; how its page groups cards into rows; the quick filters it offers. Set by the workspace file and by the board's settings
// page, through the same rule.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table boards add column swimlanes text not null default 'none'
      check (swimlanes in ('none', 'assignee', 'parent', 'priority'));
    -- [{name, assignee ('me' or 'unassigned'), label, type}], in the order the page offers them
    alter table boards add column quick_filters jsonb not null default '[]';
    -- {types, labels}: only tickets of one of the types and carrying one of the labels; null: all
    alter table boards add column filter jsonb
  `.execute(db);
}
