import { sql, type Kysely } from 'kysely';

// Board administration (spec 1, done in the browser): how a board's page groups its cards into
// rows, and the quick filters it offers. Set by the workspace file and by the board's settings
// page, through the same rule.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table boards add column swimlanes text not null default 'none'
      check (swimlanes in ('none', 'assignee', 'parent', 'priority'));
    -- [{name, assignee ('me' or 'unassigned'), label, type}], in the order the page offers them
    alter table boards add column quick_filters jsonb not null default '[]'
  `.execute(db);
}
