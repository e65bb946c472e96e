import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config/config.ts';
import type { Runtime } from './core/execute.ts';
import { failureRecord } from './core/failure-record.ts';
import { StructureStore } from './core/structure-cache.ts';
import { RowQueue } from './core/row-queue.ts';
import { BODY_LIMIT } from './core/request-size.ts';
import { hooks, registry as defaultRegistry } from './modules/index.ts';
import type { Registry } from './core/registry.ts';
import type { SerializerMode } from './core/serialization.ts';
import type { Database } from './storage/database.ts';
import { scheduleMaintenance } from './storage/embedded-maintenance.ts';
import { oauthServer } from './oauth/index.ts';
import { registerCors } from './surfaces/cors.ts';
import { LiveEvents } from './notifications/live-events.ts';
import { installDraining } from './surfaces/draining.ts';
import { requestIdFrom } from './surfaces/request-log.ts';
import { mcpEndpoint } from './surfaces/mcp/endpoint.ts';
import { mcpProtectedResource } from './surfaces/mcp/protected-resource.ts';
import { openApiRoute } from './surfaces/openapi/route.ts';
import { healthRoutes } from './surfaces/ops/health.ts';
import { instrument } from './surfaces/ops/metrics.ts';
import { RateLimiter } from './surfaces/rate-limit.ts';
import { answerClientError, answerFrameworkError } from './surfaces/rest/error-handler.ts';
import { restApi } from './surfaces/rest/rest-api.ts';
import { wellKnownRoutes } from './surfaces/well-known/protected-resource.ts';
import { authorizationPages } from './web/oauth-pages.ts';
import { assetRoutes } from './web/assets.ts';
import { webPages } from './web/plugin.ts';

export interface AppOptions {
  config: Pick<Config, 'publicUrl' | 'logLevel'> & Partial<Pick<Config, 'trustedProxies' | 'metricsToken' | 'mail'>>;
  database: Database;
  registry?: Registry;
  now?: () => Date;
  /** Requests a token may make in a minute; tests lower it to reach the limit quickly. */
  rateLimit?: number;
  /** Where the JSON log lines go (standard output when left out); tests read them from here. */
  logStream?: DestinationStream;
  /** `checked` holds every answer written as built against its schema's serializer; the tests set it. */
  serializers?: SerializerMode;
}

export { BODY_LIMIT } from './core/request-size.ts';

/** The whole service as a Fastify instance; it never listens (main.ts and tests decide). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const registry = options.registry ?? defaultRegistry;
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    ...(config.trustedProxies?.length ? { trustProxy: config.trustedProxies } : {}),
    genReqId: (request) => requestIdFrom(request.headers['x-request-id'], randomUUID),
    requestIdHeader: false,
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Never the Authorization header, tokens, passwords, bodies or query strings (which may
      // hold what a member searched for, such as an email address), nor what a failure says.
      serializers: {
        req: (request) => ({ method: request.method, path: String(request.url).split('?')[0] }),
        res: (reply) => ({ statusCode: reply.statusCode }),
        // a failure's class, code, constraint and frames: never its message (failure-record.ts);
        // Fastify's type asks for a message, which the record leaves out on purpose
        err: failureRecord as never,
      },
    },
    routerOptions: { ignoreTrailingSlash: true },
    // Failures before routing (a path that is not valid percent-encoding): the API's envelope under /api.
    frameworkErrors: (error, request, reply) => answerFrameworkError(error, request.url, reply as FastifyReply),
    // Failures before a request exists at all (a request line or headers too large): the envelope too.
    clientErrorHandler: answerClientError,
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  const liveEvents = new LiveEvents(database, app.log);
  app.decorate('liveEvents', liveEvents);
  // Open event streams would hold a drain and a close forever: both end them first.
  app.decorate('drain', installDraining(app, () => liveEvents.endStreams()).drain);
  app.addHook('preClose', async () => liveEvents.close());
  const { maintain } = database;
  if (maintain) {
    let schedule: ReturnType<typeof scheduleMaintenance> | null = null;
    app.addHook('onReady', async () => {
      schedule = scheduleMaintenance(maintain, app.log);
    });
    app.addHook('onClose', async () => schedule?.stop());
  }

  const runtime: Runtime = {
    db: database.db,
    // one per app: tests serve several databases from one process
    structure: new StructureStore(),
    hooks,
    mail: (config.mail ?? null) !== null,
    publicUrl: config.publicUrl,
    now: options.now ?? (() => new Date()),
    rowQueue: new RowQueue(),
  };
  const limiter = new RateLimiter(options.rateLimit);
  const serializers = options.serializers ?? 'fast';

  // on the root instance, so its onResponse hook sees every request
  instrument(app, { database, token: config.metricsToken ?? null });
  await app.register(healthRoutes, { database, liveEvents });

  await registerCors(app);
  await app.register(wellKnownRoutes, { publicUrl: config.publicUrl });
  await app.register(openApiRoute, { registry, publicUrl: config.publicUrl });
  await app.register(restApi, {
    prefix: '/api/v1',
    registry,
    runtime,
    limiter,
    serializers,
  });
  // The same limiter instance: one budget per token across REST and MCP.
  await app.register(mcpEndpoint, { registry, runtime, limiter, serializers });
  await app.register(mcpProtectedResource, { runtime });
  const pageDeps = { db: database.db, structure: runtime.structure, publicUrl: config.publicUrl, now: runtime.now };
  await app.register(oauthServer, { db: database.db, publicUrl: config.publicUrl, now: runtime.now, pages: authorizationPages(pageDeps) });
  // outside the pages' no-store headers: an asset's address changes with its content
  await app.register(assetRoutes);
  await app.register(webPages, { ...pageDeps, mail: runtime.mail, liveEvents, runtime, registry });
  return app;
}
