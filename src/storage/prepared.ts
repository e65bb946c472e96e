import { createHash } from 'node:crypto';
import type pg from 'pg';
import { withArrayTexts } from './array-parameters.ts';
import { DescribedQuery, forgetShapes } from './described-query.ts';

/**
 * Named (prepared) statements for the hot queries that ask for them. A query whose text holds
 * the marker is sent with a name derived from its text, so each connection parses and plans it
 * once and then only binds and executes it: measured on the ticket detail query, 5.9× the
 * throughput of sending its text every time (ADR 0035).
 *
 * Opt-in on purpose: a query whose best plan depends on its parameters (a full-text search with a
 * common prefix) must keep custom plans; PostgreSQL may switch a prepared statement to a generic
 * plan after five executions, and for search that was 10× slower.
 */
export const PREPARE = '/*prepare*/';

// Names by text, so a hot statement is not hashed again on every request. Marked statements have
// fixed shapes, so this stays small; the bound only guards against one that does not.
const names = new Map<string, string>();
const MAX_NAMES = 1000;

function named(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `q${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}

/** Round trips sent through a pool, counted at the driver (a test guards the hot requests' counts). */
export interface QueryCounter {
  count: number;
}

/** A marked statement run under its name, described only on its connection's first run (described-query.ts). */
function runNamed(query: (submittable: DescribedQuery) => unknown, name: string, text: string, values: unknown): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    query(
      new DescribedQuery(name, text, values as unknown[] | undefined, (error, result) =>
        error ? reject(error) : resolve(result as pg.QueryResult),
      ),
    );
  });
}

/**
 * Statements one connection keeps prepared at most. Each holds its plan in the server's memory
 * until the connection closes, and a statement's shape can vary (a search's filters, sort and
 * first page's limit), so a client cycling through shapes would otherwise grow it without end.
 * The service's fixed hot statements are far fewer.
 */
export const MAX_PREPARED_PER_CONNECTION = 200;

/** pg's record of the statements a connection has prepared (lib/connection.js; pglite-connection.ts keeps the same). */
interface PgConnection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
}

/**
 * The names each connection has prepared since it opened or last deallocated them. By connection,
 * not client: PGlite's pool hands its one session to each new client in turn.
 */
const preparedOn = new WeakMap<PgConnection, Set<string>>();

/** `DEALLOCATE ALL` on the connection, and pg told so: its statements are prepared again on their next run. */
async function deallocateAll(query: (...args: unknown[]) => unknown, connection: PgConnection): Promise<void> {
  await query('deallocate all');
  connection.parsedStatements = {};
  connection.submittedNamedStatements = {};
  forgetShapes(connection);
}

/**
 * How marked statements reach the database:
 * - `named`: prepared on each connection, which is one PostgreSQL session (directly);
 * - `pooler`: named, behind a pooler that keeps each client's prepared statements and prepares them
 *   on whichever session runs them (PgBouncer 1.21 and later, `max_prepared_statements`);
 * - `unnamed`: parsed and planned at every run, behind a pooler that passes names through, where a
 *   statement prepared on one session would be run on another.
 */
export type StatementNaming = 'named' | 'pooler' | 'unnamed';

/** The client with its `query` naming marked statements and writing frozen lists once (array-parameters.ts). */
function preparing(client: pg.PoolClient, counter: QueryCounter, naming: StatementNaming): pg.PoolClient {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const { connection } = client as unknown as { connection: PgConnection };
  const names = preparedOn.get(connection) ?? new Set<string>();
  preparedOn.set(connection, names);
  const runMarked = (text: string, values: unknown): Promise<pg.QueryResult> => {
    const name = named(text);
    const run = () => {
      names.add(name);
      return runNamed(query, name, text, values);
    };
    if (names.has(name) || names.size < MAX_PREPARED_PER_CONNECTION) return run();
    // the pooler bounds each session's statements itself, and a DEALLOCATE would reach one session only
    if (naming === 'pooler') return query(text, values) as Promise<pg.QueryResult>;
    return deallocateAll(query, connection).then(() => {
      names.clear();
      return run();
    });
  };
  const wrapped = ((...args: unknown[]) => {
    counter.count += 1;
    const [text, values] = args;
    if (typeof text !== 'string' || !(values === undefined || Array.isArray(values))) return query(...args);
    if (values) args[1] = withArrayTexts(values);
    return naming !== 'unnamed' && text.includes(PREPARE) ? runMarked(text, args[1]) : query(...args);
  }) as pg.PoolClient['query'];
  return Object.assign(Object.create(client) as pg.PoolClient, { query: wrapped });
}

/** The pool as Kysely's PostgresDialect sees it, handing out preparing clients (one wrapper per connection, kept). */
export function preparingPool(pool: pg.Pool, counter: QueryCounter, naming: StatementNaming = 'named'): pg.Pool {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const wrappers = new WeakMap<pg.PoolClient, pg.PoolClient>();
  return Object.assign(Object.create(pool) as pg.Pool, {
    connect: async () => {
      const client = await connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = preparing(client, counter, naming);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
  });
}
