import { sql, type Kysely } from 'kysely';

// Every list answers with its total, so a page of a large list is mostly its count (ADR 0043).
// A count reads an index only, and the fewer pages that index has, the cheaper it is. With its
// columns as keys instead of INCLUDEd, B-tree deduplication stores each run of equal keys once:
// the filter's index (project, status, level) falls from 1,449 pages to 93 on the bench's
// 100,000 tickets, and a project's open tickets count in 0.36 ms instead of 0.56. The contact
// list's count (every contact not archived) had only its page's index, 608 pages, and
// PostgreSQL's default costs priced that above reading the table: a sequential scan of 50,000
// contacts, 10 ms. An index of `archived` alone is 44 pages and counts them in 2.5 ms.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index tickets_project_status_idx;
    create index tickets_project_status_idx on tickets (project_id, status_id, security_level_id);
    create index contacts_archived_idx on contacts (archived);
  `.execute(db);
}
