import { sql, type Kysely } from 'kysely';

/** The SQLSTATE ticket_as_read raises: the ticket changed since the change read it (tickets/closing.ts). */
export const TICKET_CHANGED_SINCE_READ = 'AT409';

// A transition decided on a ticket read without a lock is written in one statement that must not
// happen if the ticket has changed since (tickets/transitions.ts). The update's condition calls
// this with whether the row is still as read; PostgreSQL evaluates it again on the newest version
// when the row was changed while the statement waited for its lock. Raising, not filtering, so
// that the statement's history and notifications are undone with it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ticket_as_read(p_same boolean) returns boolean
    language plpgsql volatile as $fn$
    begin
      if p_same then
        return true;
      end if;
      raise exception 'the ticket changed since it was read' using errcode = '${sql.raw(TICKET_CHANGED_SINCE_READ)}';
    end
    $fn$;
  `.execute(db);
}
