import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../../auth/bearer.ts';
import { ApiError } from '../../core/errors.ts';
import { admissionRefusal, runOperation, type Principal, type Runtime } from '../../core/execute.ts';
import type { Operation } from '../../core/operation.ts';
import type { Registry } from '../../core/registry.ts';
import { compileValidator } from '../../core/validation.ts';
import { rateLimitHeaders, type RateLimiter } from '../rate-limit.ts';
import { sendApiError } from './error-handler.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

export interface RestDeps {
  registry: Registry;
  runtime: Runtime;
  limiter: RateLimiter;
  /** `WWW-Authenticate` for a 401, pointing at the protected-resource metadata. */
  challenge(error?: 'invalid_token'): string;
}

/** Bearer token → REST API switch → per-token rate limit (ARCHITECTURE §3), before the body is read. */
async function admit(request: FastifyRequest, deps: RestDeps): Promise<{ principal: Principal; headers: Record<string, string> }> {
  let principal: Principal;
  try {
    principal = await authenticate(deps.runtime.db, request.headers.authorization, deps.runtime.now());
  } catch (error) {
    if (error instanceof ApiError) {
      error.headers['WWW-Authenticate'] = deps.challenge(request.headers.authorization ? 'invalid_token' : undefined);
    }
    throw error;
  }
  if (!principal.settings.restApi) {
    throw new ApiError('feature_disabled', 'The REST API is switched off in this workspace; an administrator can switch it on');
  }
  const decision = deps.limiter.take(principal.agent.tokenId);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new ApiError('rate_limited', 'Too many requests with this token; wait a minute and try again', headers);
  }
  return { principal, headers };
}

function pathPattern(path: string): RegExp {
  const escaped = path.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${escaped.join('/')}/?$`);
}

export async function restApi(app: FastifyInstance, deps: RestDeps): Promise<void> {
  app.setErrorHandler((error, request, reply) => sendApiError(error, request, reply));

  // Bodies are validated strictly, path and query strings with coercion: the same compiled
  // validators the MCP tools use.
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema, httpPart === 'body' ? 'strict' : 'coerce'));

  const patterns = deps.registry.operations.map((op) => ({ method: op.method, pattern: pathPattern(op.path) }));
  // Served beside the operations by surfaces/openapi, so a wrong method there is a 405 too.
  patterns.push({ method: 'GET', pattern: pathPattern('/openapi.json') });
  app.setNotFoundHandler(async (request, reply) => {
    const path = (request.url.split('?')[0] ?? '/').replace(/^\/api\/v1/, '');
    const allowed = [...new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method))];
    const error = allowed.length
      ? new ApiError('method_not_allowed', `${request.method} is not allowed on /api/v1${path}; use ${allowed.join(' or ')}`, { Allow: allowed.join(', ') })
      : new ApiError('not_found', `No such endpoint: ${request.method} /api/v1${path}`);
    return sendApiError(error, request, reply);
  });

  app.addHook('onRequest', async (request, reply) => {
    const op = request.routeOptions.config.operation;
    if (!op) return;
    try {
      const { principal, headers } = await admit(request, deps);
      request.principal = principal;
      reply.headers(headers);
    } catch (error) {
      if (error instanceof ApiError) reply.headers(error.headers);
      throw error;
    }
    const refused = admissionRefusal(op, request.principal);
    if (refused) throw refused;
  });

  // Only JSON bodies (spec 4): other parsers the app knows (text, forms for OAuth) must not feed an operation.
  app.addHook('preParsing', async (request, _reply, payload) => {
    const type = request.headers['content-type'];
    if (request.method !== 'GET' && type !== undefined && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) {
      throw new ApiError('invalid', '/: the body must be JSON sent with Content-Type: application/json');
    }
    return payload;
  });

  app.addHook('preValidation', async (request) => {
    if (request.method !== 'GET' && request.body === undefined) request.body = {};
  });

  for (const op of deps.registry.operations) {
    app.route({
      method: op.method,
      url: op.path,
      config: { operation: op },
      schema: {
        params: op.params,
        querystring: op.query,
        ...(op.body ? { body: op.body } : {}),
        response: { [op.status]: op.response },
      },
      handler: async (request, reply) => {
        const principal = request.principal;
        if (!principal) throw new ApiError('invalid_token', 'A valid bearer token is required');
        const input = {
          ...((request.body as object | undefined) ?? {}),
          ...(request.query as object),
          ...(request.params as object),
        } as Record<string, unknown>;
        const result = await runOperation(deps.runtime, op, principal, input, {
          door: 'rest',
          requestId: request.id,
          log: request.log,
        });
        return reply.code(op.status).send(result);
      },
    });
  }
}
