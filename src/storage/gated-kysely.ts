import {
  Kysely,
  type CompiledQuery,
  type ConnectionProvider,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type KyselyPlugin,
  type QueryExecutor,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
} from 'kysely';

/**
 * What decides when a statement may reach the database: the token check a change waits for
 * (auth/bearer.ts, DeferredTokenCheck), or the queue of changes to one row (core/row-queue.ts,
 * writesQueued).
 */
export interface StatementGate {
  /**
   * Calls `send` when the statement may go, or rejects without calling it. `query` is null for a
   * connection taken for a transaction or a session, which then runs its statements on it.
   */
  through<T>(query: CompiledQuery | null, send: () => Promise<T>): Promise<T>;
}

// A statement that only reads: one plain SELECT (a data-modifying CTE starts with WITH).
const PLAIN_SELECT = /^\s*(?:\/\*prepare\*\/\s*)?select\s/i;

/** Whether a statement is one plain SELECT, which changes nothing and takes no row lock of a change. */
export function isPlainSelect(query: CompiledQuery | null): boolean {
  return query !== null && PLAIN_SELECT.test(query.sql);
}

/** Both gates, in order: a statement the first lets through waits for the second. */
export function bothGates(first: StatementGate, second: StatementGate): StatementGate {
  return { through: (query, send) => first.through(query, () => second.through(query, send)) };
}

/**
 * An executor that sends nothing the gate holds back. Every way a statement leaves Kysely passes
 * here: a query (executeQuery), or a connection taken for a transaction or a session
 * (provideConnection); a stream is refused. An executor it derives (a transaction's, a plugin's)
 * is gated the same way. A statement waits before it takes a connection, so a held one never
 * waits with a connection of the pool in hand (the gate's own check may need one).
 */
class GatedExecutor implements QueryExecutor {
  readonly #inner: QueryExecutor;
  readonly #gate: StatementGate;

  constructor(inner: QueryExecutor, gate: StatementGate) {
    this.#inner = inner;
    this.#gate = gate;
  }

  get adapter() {
    return this.#inner.adapter;
  }

  get plugins(): readonly KyselyPlugin[] {
    return this.#inner.plugins;
  }

  transformQuery<T extends RootOperationNode>(node: T, queryId: QueryId): T {
    return this.#inner.transformQuery(node, queryId);
  }

  compileQuery<R = unknown>(node: RootOperationNode, queryId: QueryId): CompiledQuery<R> {
    return this.#inner.compileQuery<R>(node, queryId);
  }

  executeQuery<R>(compiledQuery: CompiledQuery<R>): Promise<QueryResult<R>> {
    return this.#gate.through(compiledQuery, () => this.#inner.executeQuery(compiledQuery));
  }

  // A stream's rows come after its gate's `send` has returned, so no gate could hold it: no change streams.
  // biome-ignore lint/correctness/useYield: the interface asks for a generator; this one refuses before its first row
  async *stream<R>(_compiledQuery: CompiledQuery<R>, _chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('a gated database handle does not stream');
  }

  provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    return this.#gate.through(null, () => this.#inner.provideConnection(consumer));
  }

  withConnectionProvider(connectionProvider: ConnectionProvider): QueryExecutor {
    return new GatedExecutor(this.#inner.withConnectionProvider(connectionProvider), this.#gate);
  }

  withPlugin(plugin: KyselyPlugin): QueryExecutor {
    return new GatedExecutor(this.#inner.withPlugin(plugin), this.#gate);
  }

  withPlugins(plugins: readonly KyselyPlugin[]): QueryExecutor {
    return new GatedExecutor(this.#inner.withPlugins(plugins), this.#gate);
  }

  withPluginAtFront(plugin: KyselyPlugin): QueryExecutor {
    return new GatedExecutor(this.#inner.withPluginAtFront(plugin), this.#gate);
  }

  withoutPlugins(): QueryExecutor {
    return new GatedExecutor(this.#inner.withoutPlugins(), this.#gate);
  }
}

/**
 * What a gated handle of a database needs besides its executor: its dialect, and a driver for
 * the statements that open and close a transaction on a connection the executor took. A driver
 * made by the dialect and never initialised does only that: it acquires nothing itself.
 */
interface Gatable {
  dialect: Dialect;
  driver: Driver;
}

const gatable = new WeakMap<object, Gatable>();

/** Lets `db`, opened on `dialect`, be gated (gatedKysely). */
export function allowGating<DB>(db: Kysely<DB>, dialect: Dialect): void {
  gatable.set(db, { dialect, driver: dialect.createDriver() });
}

/** The dialect `db` was opened on (allowGating), for another handle of the same pool (migrate.ts). */
export function dialectOf<DB>(db: Kysely<DB>): Dialect {
  const parts = gatable.get(db);
  if (!parts) throw new Error('this database handle was not opened for gating (allowGating)');
  return parts.dialect;
}

/**
 * `db` with every statement passed through `gate`: the same pool, plugins and transactions.
 * Kysely builds a handle from its parts (KyselyProps) for its own transactions and plugins; this
 * does the same with its executor, which `getExecutor` gives (marked internal: a test of the gate
 * fails if it moves, storage/gated-kysely.test.ts).
 */
export function gatedKysely<DB>(db: Kysely<DB>, gate: StatementGate): Kysely<DB> {
  const parts = gatable.get(db);
  if (!parts) throw new Error('this database handle was not opened for gating (allowGating)');
  return new Kysely<DB>({
    config: { dialect: parts.dialect },
    dialect: parts.dialect,
    driver: parts.driver,
    executor: new GatedExecutor(db.getExecutor(), gate),
  });
}
