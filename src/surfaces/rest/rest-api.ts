import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { runOperation, type Principal } from '../../core/execute.ts';
import type { Operation } from '../../core/operation.ts';
import type { Registry } from '../../core/registry.ts';
import { serializerFor, type SerializerMode } from '../../core/serialization.ts';
import { compileValidator } from '../../core/validation.ts';
import type { DeferredTokenCheck } from '../../auth/bearer.ts';
import { admitOperation, admitRequest, runChecked, settleAdmission, type AdmissionDeps } from '../admission.ts';
import { isUtf8 } from '../content-type.ts';
import { IGNORED_HEADER } from '../cors.ts';
import { logIgnored, logOperation, logWho } from '../request-log.ts';
import { sendApiError } from './error-handler.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** The token's check while it waits for the operation's read (admission.ts, runChecked). */
    tokenCheck?: DeferredTokenCheck;
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

export interface RestDeps extends AdmissionDeps {
  registry: Registry;
  serializers: SerializerMode;
}

/** Names the operation does not take: query parameters as `?name`, top-level body fields as JSON pointers (`/name`). */
function ignoredParameters(op: Operation, query: unknown, body: unknown): string[] {
  const names = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []);
  const queryIgnored = names(query)
    .filter((name) => !(name in op.query.properties))
    .map((name) => `?${name}`);
  const bodyIgnored = op.body
    ? names(body)
        .filter((name) => !(name in op.body!.properties))
        .map((name) => `/${name}`)
    : [];
  return [...queryIgnored, ...bodyIgnored];
}

/** The request's deferred token check, taken so that it is settled once. */
function takeCheck(request: FastifyRequest): DeferredTokenCheck | undefined {
  const check = request.tokenCheck;
  request.tokenCheck = undefined;
  return check;
}

function pathPattern(path: string): RegExp {
  const escaped = path.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${escaped.join('/')}/?$`);
}

export async function restApi(app: FastifyInstance, deps: RestDeps): Promise<void> {
  app.setErrorHandler(async (error, request, reply) => {
    // refused before its read ran (its query string, its body): the token's check still comes first
    const check = takeCheck(request);
    const op = request.routeOptions.config.operation;
    if (check && op && request.principal) {
      try {
        await settleAdmission(deps, 'rest', request, op, check, request.principal);
      } catch (refusal) {
        return sendApiError(refusal, request, reply);
      }
    }
    return sendApiError(error, request, reply);
  });

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
      ? new ApiError('method_not_allowed', `${request.method} is not allowed on /api/v1${path}; use ${allowed.join(' or ')}`, {
          Allow: allowed.join(', '),
        })
      : new ApiError('not_found', `No such endpoint: ${request.method} /api/v1${path}`);
    return sendApiError(error, request, reply);
  });

  app.addHook('onRequest', async (request, reply) => {
    const op = request.routeOptions.config.operation;
    if (!op) return;
    logOperation(request, op.name);
    // a read's token check rides in the read's own statement (one round trip instead of two), and
    // so does a change's that declares its first read
    const deferrable = op.access === 'read' ? request.method === 'GET' : op.checkedByFirstRead;
    const { principal, headers, check } = await admitRequest(deps, 'rest', request, deferrable ? { op } : undefined);
    request.principal = principal;
    if (check) request.tokenCheck = check;
    logWho(request, principal);
    reply.headers(headers);
    admitOperation(op, principal);
  });

  // Only JSON bodies (spec 4): other parsers the app knows (text, forms for OAuth) must not feed an operation.
  app.addHook('preParsing', async (request, _reply, payload) => {
    const type = request.headers['content-type'];
    if (request.method !== 'GET' && type !== undefined && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) {
      throw new ApiError('invalid', '/: the body must be JSON sent with Content-Type: application/json');
    }
    if (request.method !== 'GET' && type !== undefined && !isUtf8(type)) {
      throw new ApiError('invalid', '/: the body must be UTF-8 (JSON is); send Content-Type: application/json without another charset');
    }
    return payload;
  });

  app.addHook('preValidation', async (request, reply) => {
    if (request.method !== 'GET' && request.body === undefined) request.body = {};
    const op = request.routeOptions.config.operation;
    if (!op) return;
    // Spec 4 ignores what the description does not name; saying so turns a silent typo (`?projct=`) into a visible one.
    const ignored = ignoredParameters(op, request.query, request.body);
    if (ignored.length) {
      // percent-encoded: a name may hold anything, a header value may not
      reply.header(IGNORED_HEADER, ignored.map((name) => name.slice(0, 1) + encodeURIComponent(name.slice(1))).join(', '));
      logIgnored(request, ignored);
    }
  });

  for (const op of deps.registry.operations) {
    app.route({
      method: op.method,
      url: op.path,
      bodyLimit: op.requestLimit,
      config: { operation: op },
      schema: {
        params: op.params,
        querystring: op.query,
        ...(op.body ? { body: op.body } : {}),
        response: { [op.status]: op.response },
      },
      // The serializer the MCP tool uses too, compiled at its first answer.
      serializerCompiler: ({ schema }) => serializerFor(schema, deps.serializers, op.answerAsBuilt),
      handler: async (request, reply) => {
        const principal = request.principal;
        if (!principal) throw new ApiError('invalid_token', 'A valid bearer token is required');
        const input = {
          ...((request.body as object | undefined) ?? {}),
          ...(request.query as object),
          ...(request.params as object),
        } as Record<string, unknown>;
        const call = { door: 'rest' as const, requestId: request.id, log: request.log };
        const check = takeCheck(request);
        if (!check) return reply.code(op.status).send(await runOperation(deps.runtime, op, principal, input, call));
        const checked = await runChecked(deps, 'rest', request, op, { principal, check }, (as, tokenCheck) =>
          runOperation(deps.runtime, op, as, input, { ...call, tokenCheck }),
        );
        request.principal = checked.principal;
        return reply.code(op.status).send(checked.result);
      },
    });
  }
}
