import pg from 'pg';

// pg's Query and Result as they work inside (pg 8, lib/query.js and lib/result.js): the parts
// DescribedQuery takes over. Not in pg's types; test/platform/described-query.test.ts holds
// them to pg's behaviour, so an upgrade that moves them fails there first.
interface Connection {
  describe(message: { type: string; name: string }): void;
}
interface ResultState {
  fields: unknown[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: object | null;
}
interface QueryInternals {
  name?: string;
  callback?: unknown;
  _result: ResultState;
  _accumulateRows: boolean;
  prepare(connection: Connection): void;
  handleCommandComplete(message: unknown, connection: Connection): void;
}
type Callback = (error: Error | undefined, result: pg.ResultBuilder) => void;
const QueryWithInternals = pg.Query as unknown as new (
  text: string,
  values: unknown[] | undefined,
  callback: Callback,
) => pg.Query & QueryInternals;

/** What a named statement answers on one connection, as pg's Result set it up from its RowDescription. */
type Shape = Readonly<ResultState>;

const shapes = new WeakMap<Connection, Map<string, Shape>>();

const skipDescribe = () => {};

/** Forgets what the connection's statements answer, once they are deallocated (prepared.ts). */
export function forgetShapes(connection: object): void {
  shapes.delete(connection as Connection);
}

/**
 * A named statement's execution without the Describe message, once the connection has described
 * it. pg asks PostgreSQL to describe the portal at every execution, then reads the RowDescription
 * and builds the result's field parsers and empty row again: for the ticket detail's 45 columns,
 * about 12 µs of the service's CPU and 13 KB of its allocation on every GET of a ticket, for an
 * answer that cannot change. A named statement's columns are fixed while it lives on its
 * connection: PostgreSQL refuses to run it rather than change them ("cached plan must not change
 * result type"). So the first execution on a connection describes it as pg does, and later ones
 * take the result's setup from it. Statements that return no rows are remembered alike.
 */
export class DescribedQuery extends QueryWithInternals {
  // Given its text, not a config object: pg copies a config object property by property, with
  // their descriptors, which took 7 µs of every statement.
  constructor(name: string, text: string, values: unknown[] | undefined, callback: Callback) {
    super(text, values, callback);
    this.name = name;
  }

  override prepare(connection: Connection): void {
    const shape = this.name === undefined ? undefined : shapes.get(connection)?.get(this.name);
    if (!shape) {
      super.prepare(connection);
      return;
    }
    // pg's own steps (parse if new, bind, execute, sync), with its Describe left out
    connection.describe = skipDescribe;
    try {
      super.prepare(connection);
    } finally {
      delete (connection as Partial<Connection>).describe;
    }
    Object.assign(this._result, shape);
    // as pg's handleRowDescription decides it
    this._accumulateRows = Boolean(this.callback) || this.listeners('row').length === 0;
  }

  override handleCommandComplete(message: unknown, connection: Connection): void {
    if (this.name !== undefined) {
      let byName = shapes.get(connection);
      if (!byName) shapes.set(connection, (byName = new Map()));
      if (!byName.has(this.name)) {
        const { fields, _parsers, _prebuiltEmptyResultObject } = this._result;
        byName.set(this.name, Object.freeze({ fields, _parsers, _prebuiltEmptyResultObject }));
      }
    }
    super.handleCommandComplete(message, connection);
  }
}
