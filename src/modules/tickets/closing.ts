import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { historyInsert } from '../../core/history.ts';
import type { DB, HistoryChange } from '../../storage/schema.ts';
import { announcementInserts, type Announcement } from './notify.ts';
import { ticketRowColumns, type TicketRow, type TicketState } from './repo.ts';
import { searchDocumentSet, type WordsChange } from './search-document.ts';
import { TICKET_CHANGED_SINCE_READ } from '../../storage/migrations/0028-ticket-as-read.ts';
import { PREPARE } from '../../storage/prepared.ts';

/**
 * Columns a closing statement may set with the rest. Never assignee_id: the trigger that makes a
 * new assignee a watcher runs after the statement, too late for its notifications.
 */
export interface ClosingColumns {
  status_id: string;
  resolution_id: string | null;
  resolved_at: string | null;
}

export interface Closing {
  set?: ClosingColumns;
  /** The history entries of the change (spec 6: exactly those it recorded one by one before). */
  history: { kind: string; changes: HistoryChange[] }[];
  /** What the watchers are told (none: a change no one is notified of, as a time-tracking sync's totals). */
  announcement?: Omit<Announcement, 'ticket' | 'watchers'>;
  /** What the change did to the search document's words (a comment it added is already inserted). */
  words: WordsChange;
  /**
   * For a change decided on the ticket read without its row lock: the ticket as read. The
   * statement fails with TicketChangedSinceRead, writing nothing, if the row no longer holds it.
   */
  asRead?: TicketAsRead;
}

/** What a transition or a worklog is decided on (tickets/transitions.ts, worklogs.ts): the ticket's columns read, with their SQL types. */
const AS_READ = {
  project_id: 'uuid',
  type_id: 'uuid',
  status_id: 'uuid',
  resolution_id: 'uuid',
  resolved_at: 'timestamptz',
  assignee_id: 'uuid',
  reporter_id: 'uuid',
  security_level_id: 'uuid',
} as const;

export type TicketAsRead = Pick<TicketState, keyof typeof AS_READ>;

/** A ticket's time totals, which a worklog moves (tickets/worklogs.ts), with their SQL types. */
const TOTALS = { time_spent_seconds: 'integer', remaining_estimate_seconds: 'integer' } as const;

export type WorkTotals = Pick<TicketState, keyof typeof TOTALS>;

/** A change decided on a ticket that another change has changed since: decide it again, on the row locked. */
export class TicketChangedSinceRead extends Error {
  constructor() {
    super('the ticket changed since it was read');
  }
}

const isChangedSinceRead = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === TICKET_CHANGED_SINCE_READ;

/** SQL: whether ticket `t` still holds what was read in `types`' columns (ticket_as_read raises if not, migration 0028). */
function stillAsRead<K extends string>(types: Record<K, string>, read: Record<K, unknown>) {
  const columns = Object.entries(types) as [K, string][];
  const now = columns.map(([column]) => sql.ref(`t.${column}`));
  const then = columns.map(([column, type]) => sql`${read[column]}::${sql.raw(type)}`);
  return sql`and ticket_as_read((${sql.join(now)}) is not distinct from (${sql.join(then)}))`;
}

/** The statement, with a change decided on the ticket as read turned into TicketChangedSinceRead. */
async function executeClosing<R>(ctx: Context, statement: RawBuilder<R>): Promise<R[]> {
  try {
    return (await statement.execute(ctx.db)).rows;
  } catch (error) {
    throw isChangedSinceRead(error) ? new TicketChangedSinceRead() : error;
  }
}

/**
 * The last statement of a ticket change, one round trip: its history rows, its notifications to
 * the watchers as the change left them (spec 6), the search document brought up to date and the ticket
 * marked updated — and the ticket as the answer shows it, from the row just written (RETURNING),
 * so nothing is read again after the write.
 */
export async function closeTicketChange(ctx: Context, ticket: { id: string; key: string }, closing: Closing): Promise<TicketRow> {
  const rows = await closingStatement<TicketRow>(ctx, ticket, closing, ticketRowColumns);
  return rows[0]!;
}

/** closeTicketChange for a change whose answer is not the ticket (a comment, a worklog). */
export async function closeTicketChangeQuietly(ctx: Context, ticket: { id: string; key: string }, closing: Closing): Promise<void> {
  await closingStatement(ctx, ticket, closing, sql`t.id`);
}

/** A ticket change that adds a comment, its writes ready to be sent with other such changes' (closeTicketChangesWithComments). */
export interface CommentedChange {
  ticketId: string;
  commentId: string;
  /** The comment's insert, returning the columns the answer shows, its visibility and its search_vector. */
  insert: RawBuilder<unknown>;
  /** Its history and notification inserts. */
  writes: RawBuilder<unknown>[];
}

/** The writes of a change that adds the comment `commentId` with `insert` (closeTicketChangesWithComments). */
export function commentedChange(
  ctx: Context,
  ticket: { id: string; key: string },
  closing: Omit<Closing, 'words' | 'set'>,
  commentId: string,
  insert: RawBuilder<unknown>,
): CommentedChange {
  return { ticketId: ticket.id, commentId, insert, writes: closingWrites(ctx, ticket, closing) };
}

/**
 * closeTicketChange for changes that each insert a comment: all of them in one statement, each
 * answered with its comment's `columns` as inserted, in the order given. Changes of one ticket
 * that waited for its row together are written so (RowQueue.join): the ticket's row updated
 * once, one commit.
 *
 * The statement runs alone and takes the ticket's row lock itself, last: comments on one ticket
 * queue for that row (ADR 0041). Its writes are read in the FROM list, so they run before the
 * ticket's update (left unread, PostgreSQL runs them after it, under the lock), and the update
 * is a function of its own (ticket_commented, migrations 0025 and 0027), so a statement that
 * waited re-checks that small statement, not this one with all its inserts.
 */
export async function closeTicketChangesWithComments<R extends Record<string, unknown>>(
  db: Kysely<DB>,
  changes: CommentedChange[],
  columns: readonly (keyof R & string)[],
): Promise<R[]> {
  const ticketId = changes[0]!.ticketId;
  // the same key named another ticket between two requests' reads (a moved ticket's old key): each alone
  if (changes.some((change) => change.ticketId !== ticketId)) {
    return Promise.all(changes.map(async (change) => (await closeTicketChangesWithComments<R>(db, [change], columns))[0]!));
  }
  // listed by what they write, so that the statement's text, a prepared statement's name, depends
  // on how many comments of each kind it writes and not on their order (ticket_commented orders the words)
  const order = changes.map((change, i) => ({ change, i })).sort((a, b) => a.change.writes.length - b.change.writes.length);
  const ctes: RawBuilder<unknown>[] = [];
  const from: RawBuilder<unknown>[] = [];
  const selected: RawBuilder<unknown>[] = [];
  const words: RawBuilder<unknown>[] = [];
  order.forEach(({ change }, k) => {
    const n = `n${k}`;
    ctes.push(sql`${sql.raw(n)} as (${change.insert})`);
    from.push(sql.raw(n));
    change.writes.forEach((write, j) => {
      const w = sql.raw(`${n}w${j}`);
      ctes.push(sql`${w} as (${write} returning 1)`);
      from.push(sql`(select count(*) from ${w}) ${w}`);
    });
    selected.push(...columns.map((column) => sql`${sql.ref(`${n}.${column}`)} as ${sql.id(`${k}.${column}`)}`));
    words.push(
      sql`case when ${sql.ref(`${n}.visibility`)} <> 'restricted' then setweight(${sql.ref(`${n}.search_vector`)}, 'D') else ''::tsvector end`,
    );
  });
  const ids = order.map((_, k) => sql.ref(`n${k}.id`));
  // prepared: a few fixed shapes (how many comments, with how many mentions), every row found by its key
  const result = await sql<Record<string, unknown>>`${sql.raw(PREPARE)}
    with ${sql.join(ctes)}
    select ${sql.join(selected)}, ticket_commented(${ticketId}::uuid, array[${sql.join(ids)}]::uuid[], array[${sql.join(words)}]::tsvector[]) as commented
    from ${sql.join(from)}
  `.execute(db);
  const row = result.rows[0]!;
  const answers: R[] = [];
  order.forEach(({ i }, k) => {
    answers[i] = Object.fromEntries(columns.map((column) => [column, row[`${k}.${column}`]])) as R;
  });
  return answers;
}

/** The history and notification inserts of a ticket change. */
function closingWrites(
  ctx: Context,
  ticket: { id: string; key: string },
  closing: Pick<Closing, 'history' | 'announcement'>,
): RawBuilder<unknown>[] {
  const by = { actorId: ctx.actor.memberId, via: ctx.agent.name };
  const about = { entityType: 'ticket', entityId: ticket.id };
  return [
    ...(closing.history.length ? [historyInsert(by, about, closing.history)] : []),
    ...(closing.announcement ? announcementInserts(ctx, { ticket, ...closing.announcement }) : []),
  ];
}

/** The history and notification inserts of a ticket change, named w0, w1… for a statement's WITH. */
function closingCtes(
  ctx: Context,
  ticket: { id: string; key: string },
  closing: Pick<Closing, 'history' | 'announcement'>,
): RawBuilder<unknown>[] {
  return closingWrites(ctx, ticket, closing).map((write, i) => sql`${sql.raw(`w${i}`)} as (${write})`);
}

async function closingStatement<R>(
  ctx: Context,
  ticket: { id: string; key: string },
  closing: Closing,
  returning: RawBuilder<unknown>,
): Promise<R[]> {
  // A change in a transaction locked the ticket's row when it read the ticket, so its writes
  // need not run before the update.
  const ctes = closingCtes(ctx, ticket, closing);
  const set = closing.set
    ? sql`status_id = ${closing.set.status_id}::uuid, resolution_id = ${closing.set.resolution_id}::uuid, resolved_at = ${closing.set.resolved_at}::timestamptz,`
    : sql``;
  // statuses joined on the status the row is given, not the one it had (the join sees the old row)
  const status = closing.set ? sql`${closing.set.status_id}::uuid` : sql`t.status_id`;
  // prepared: a few fixed shapes, every row found by its key, so a generic plan is the right one
  const document = searchDocumentSet(closing.words);
  const statement = sql<R>`${sql.raw(PREPARE)}
    ${ctes.length ? sql`with ${sql.join(ctes)}` : sql``}
    update tickets t set ${set} ${document ? sql`${document},` : sql``} updated_at = now()
    from projects p, statuses s
    where t.id = ${ticket.id}::uuid and p.id = t.project_id and s.id = ${status} ${closing.asRead ? stillAsRead(AS_READ, closing.asRead) : sql``}
    returning ${returning}
  `;
  return executeClosing(ctx, statement);
}

/** A change that inserts a row of its own and moves the ticket's time totals: a worklog. */
export interface WorkChange {
  /** The row's insert, returning the answer's `columns`. */
  insert: RawBuilder<unknown>;
  totals: WorkTotals;
  /** For a change decided on the ticket read without its row lock: the ticket as read, its totals with it. */
  asRead?: TicketAsRead & WorkTotals;
}

/**
 * closeTicketChange for a worklog, in one statement with the worklog's insert and the ticket's new
 * totals, answered with the inserted row's `columns`. The search document stays: no worklog is
 * in it (migration 0017).
 */
export async function closeTicketChangeWithWork<R extends Record<string, unknown>>(
  ctx: Context,
  ticket: { id: string; key: string },
  closing: Pick<Closing, 'history' | 'announcement'>,
  work: WorkChange,
  columns: readonly (keyof R & string)[],
): Promise<R> {
  const ctes = [sql`inserted as (${work.insert})`, ...closingCtes(ctx, ticket, closing)];
  const guard = work.asRead ? stillAsRead({ ...AS_READ, ...TOTALS }, work.asRead) : sql``;
  // prepared: a few fixed shapes (how many people a worklog mentions), every row found by its key
  const statement = sql<R>`${sql.raw(PREPARE)}
    with ${sql.join(ctes)}
    update tickets t
    set time_spent_seconds = ${work.totals.time_spent_seconds}::integer,
        remaining_estimate_seconds = ${work.totals.remaining_estimate_seconds}::integer, updated_at = now()
    from inserted
    where t.id = ${ticket.id}::uuid ${guard}
    returning ${sql.join(columns.map((column) => sql.ref(`inserted.${column}`)))}
  `;
  const rows = await executeClosing(ctx, statement);
  return rows[0]!;
}

/**
 * A ticket's new board rank (not an edit: updated_at stays) with its history entry, answered as
 * the ticket shows, in one statement. The caller holds the ticket's row lock, so the rank the
 * statement reads before its update is the one the ticket had.
 */
export async function rankTicket(ctx: Context, ticketId: string, rank: string): Promise<TicketRow> {
  const history = historyInsert(
    { actorId: ctx.actor.memberId, via: ctx.agent.name },
    { entityType: 'ticket', entityId: ticketId },
    [{ kind: 'ranked', changes: [{ field: 'rank', from: null, to: rank }] }],
    { from: sql`(select rank from ranked_before)` },
  );
  // prepared: one fixed shape, every row found by its key
  const result = await sql<TicketRow>`${sql.raw(PREPARE)}
    with ranked_before as (select rank from tickets where id = ${ticketId}::uuid), h as (${history})
    update tickets t set rank = ${rank}
    from projects p, statuses s
    where t.id = ${ticketId}::uuid and p.id = t.project_id and s.id = t.status_id
    returning ${ticketRowColumns}
  `.execute(ctx.db);
  return result.rows[0]!;
}
