import { isPlainSelect, type StatementGate } from '../storage/gated-kysely.ts';

/**
 * How many changes of one row reach the database at once: PostgreSQL serves a hot row's lock
 * waiters slower the more there are, and three let the next change make its inserts while the
 * holder commits (ADR 0042).
 */
export const CHANGES_PER_ROW = 3;

/**
 * How many changes waiting for one row a joined write takes at once (RowQueue.join). Each count
 * is a statement of its own shape, which each connection plans in full five times before it keeps
 * a generic plan: a few shapes pay that back soon (ADR 0042).
 */
export const CHANGES_JOINED = 4;

/** Writes several changes of one row as one (their items in the order given), one answer per item in that order. */
export type JoinedWrite<I, O> = (items: I[]) => Promise<O[]>;

type Outcome<O> = { ok: true; value: O } | { ok: false; error: unknown };

/** Changes waiting together for one place in a row's queue, written by one call of the first one's `write`. */
interface Batch {
  /** What the changes are: only changes of the same kind join. */
  kind: object;
  write: JoinedWrite<unknown, unknown>;
  items: unknown[];
  outcomes?: Promise<Outcome<unknown>[]>;
}

interface Waiting {
  start: () => void;
  /** The batch this waiter writes, which changes of its kind may still join. */
  batch?: Batch;
}

/**
 * Changes that lock one row, let through a few at a time per row (an operation's `locksRow`);
 * the rest wait here in order, holding no connection. Per process: each node queues its own.
 * No change waits for two rows here, so the queue adds no cycle to the database's lock waits.
 */
export class RowQueue {
  private readonly rows = new Map<string, { running: number; waiting: Waiting[] }>();
  private readonly perRow: number;

  constructor(perRow = CHANGES_PER_ROW) {
    this.perRow = perRow;
  }

  run<T>(row: string, work: () => Promise<T>): Promise<T> {
    return this.#run(row, work);
  }

  /**
   * A change written with others of its `kind` that wait for the same row: while the row's places
   * are taken, it joins a batch waiting for the next one, which the batch's first `write` then
   * writes at once (ADR 0042: a ticket's row updated once for all the comments that waited, one
   * statement and one commit). Each change gets its own answer or its own failure: a batch that
   * fails is written again one change at a time, so one bad change refuses only itself.
   */
  async join<I, O>(row: string, kind: object, item: I, write: JoinedWrite<I, O>): Promise<O> {
    const open = this.rows.get(row)?.waiting.find((w) => w.batch?.kind === kind && w.batch.items.length < CHANGES_JOINED)?.batch;
    let index = 0;
    let batch: Batch;
    if (open) {
      batch = open;
      index = batch.items.push(item) - 1;
    } else {
      // the item is in before the batch may start: with a place free, it starts at once
      batch = { kind, write: write as JoinedWrite<unknown, unknown>, items: [item] };
      batch.outcomes = this.#run(row, () => writeBatch(batch), batch);
    }
    const outcome = (await batch.outcomes!)[index]!;
    if (!outcome.ok) throw outcome.error;
    return outcome.value as O;
  }

  async #run<T>(row: string, work: () => Promise<T>, batch?: Batch): Promise<T> {
    let entry = this.rows.get(row);
    if (!entry) {
      entry = { running: 0, waiting: [] };
      this.rows.set(row, entry);
    }
    if (entry.running < this.perRow) entry.running += 1;
    else await new Promise<void>((start) => entry.waiting.push(batch ? { start, batch } : { start }));
    try {
      return await work();
    } finally {
      const next = entry.waiting.shift();
      // the place passes to the next in line; the last one out forgets the row
      if (next) next.start();
      else if (--entry.running === 0) this.rows.delete(row);
    }
  }
}

/** A batch's outcomes: all its changes written at once, or, when that fails, each on its own. */
async function writeBatch(batch: Batch): Promise<Outcome<unknown>[]> {
  // no change joins once the batch has left the waiting line, so its items are final here
  const { write, items } = batch;
  try {
    const values = await write(items);
    return values.map((value) => ({ ok: true, value }));
  } catch (error) {
    if (items.length === 1) return [{ ok: false, error }];
  }
  const outcomes: Outcome<unknown>[] = [];
  for (const item of items) {
    try {
      outcomes.push({ ok: true, value: (await write([item]))[0] });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}

/**
 * The gate of one call of a change made of one statement (an operation's `oneStatement`): its
 * reads go at once, and what may write takes a place in the row's queue for as long as it runs (a
 * statement, or a transaction's connection until it ends). So the reads before the write (the
 * ticket a comment is on, the member's right to comment) hold no place while others wait for one.
 * One place per call: what it sends while it holds one (a transaction's statements, which Kysely
 * passes through the gate again inside it) goes at once, or two calls could each hold a place and
 * wait for another.
 */
export function writesQueued(queue: RowQueue, row: string): StatementGate {
  let holding = 0;
  return {
    through: (query, send) => {
      if (holding > 0 || isPlainSelect(query)) return send();
      return queue.run(row, async () => {
        holding += 1;
        try {
          return await send();
        } finally {
          holding -= 1;
        }
      });
    },
  };
}
