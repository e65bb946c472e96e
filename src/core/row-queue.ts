import { isPlainSelect, type StatementGate } from '../storage/gated-kysely.ts';

/**
 * How many changes of one row reach the database at once. PostgreSQL serves a hot row's lock
 * waiters slower the more there are: in pgbench, comments on one ticket commit at 850 a second
 * from one session, 800 from three, 450 from sixteen. Three overlap the holder's commit with the
 * next change's inserts (bench/RESULTS.md, thirty-second session).
 */
export const CHANGES_PER_ROW = 3;

/**
 * Changes that lock one row, let through a few at a time per row (an operation's `locksRow`);
 * the rest wait here in order, holding no connection. Per process: each node queues its own.
 * No change waits for two rows here, so the queue adds no cycle to the database's lock waits.
 */
export class RowQueue {
  private readonly rows = new Map<string, { running: number; waiting: (() => void)[] }>();
  private readonly perRow: number;

  constructor(perRow = CHANGES_PER_ROW) {
    this.perRow = perRow;
  }

  async run<T>(row: string, work: () => Promise<T>): Promise<T> {
    let entry = this.rows.get(row);
    if (!entry) {
      entry = { running: 0, waiting: [] };
      this.rows.set(row, entry);
    }
    if (entry.running < this.perRow) entry.running += 1;
    else await new Promise<void>((resolve) => entry.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = entry.waiting.shift();
      // the slot passes to the next in line; the last one out forgets the row
      if (next) next();
      else if (--entry.running === 0) this.rows.delete(row);
    }
  }
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
