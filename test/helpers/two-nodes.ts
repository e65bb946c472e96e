import { buildApp } from '../../src/app.ts';
import { openAnotherNode, postgresServerUrl } from './database.ts';
import { injectRequest, startTestService, type StartOptions, type TestService } from './service.ts';

export interface TwoNodes {
  first: TestService;
  /** A second app on the first one's database, with its own connection pool; the first itself on PGlite. */
  second: TestService;
  /** Whether the second is another node (PostgreSQL) or the first again (PGlite, one process by design). */
  twoNodes: boolean;
  close(): Promise<void>;
}

/**
 * A test service and, on PostgreSQL, a second node on its database: two apps, two connection
 * pools, one database, as two processes behind a load balancer would be.
 */
export async function startTwoNodes(options: StartOptions = {}): Promise<TwoNodes> {
  const first = await startTestService(options);
  if (postgresServerUrl() === null) return { first, second: first, twoNodes: false, close: () => first.close() };
  // through the run's pooler when it has one, as the first node
  const database = await openAnotherNode(first.db);
  const app = await buildApp({
    config: { publicUrl: first.publicUrl, logLevel: options.logStream ? (options.logLevel ?? 'info') : 'silent' },
    database,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  await app.ready();
  const second: TestService = {
    ...first,
    app,
    database,
    db: database.db,
    request: (method, path, requestOptions) => injectRequest(app, method, path, requestOptions),
  };
  return {
    first,
    second,
    twoNodes: true,
    async close() {
      await app.close();
      await database.close();
      await first.close();
    },
  };
}
