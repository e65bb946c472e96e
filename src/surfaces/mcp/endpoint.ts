import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromDatabase } from '../../core/database-errors.ts';
import { ApiError, errorBody, internalErrorMessage } from '../../core/errors.ts';
import { BODY_LIMIT, sizeText } from '../../core/request-size.ts';
import { serializerFor, type SerializerMode } from '../../core/serialization.ts';
import type { Principal } from '../../core/execute.ts';
import type { Registry } from '../../core/registry.ts';
import type { DeferredTokenCheck } from '../../auth/bearer.ts';
import { admitRequest, runChecked, settleAdmission, type AdmissionDeps } from '../admission.ts';
import { isUtf8 } from '../content-type.ts';
import { logErrorCode, logOperation, logWho } from '../request-log.ts';
import { answerMessage, isInitialize, type Answer, type Exchange } from './dispatch.ts';
import { encodeMessage, encodeMessages } from './json-text.ts';
import { MCP_PATH } from './protected-resource.ts';
import { largestRequest, longerThan, requestLimitFor } from './request-size.ts';
import { ErrorCode, isProtocolVersion, PROTOCOL_VERSIONS, rpcError, VERSION_WITHOUT_HEADER, type ProtocolVersion } from './protocol.ts';
import { buildToolset, type Toolset } from './tools.ts';

export interface McpDeps extends AdmissionDeps {
  registry: Registry;
  serializers: SerializerMode;
}

declare module 'fastify' {
  interface FastifyRequest {
    mcpPrincipal?: Principal;
    /** The token's check while it waits for a read tool's statement (settled before any answer). */
    mcpCheck?: DeferredTokenCheck;
  }
}

const tooLarge = (limit: number) => `The request body is larger than ${sizeText(limit)}`;

/** A batch counts once against the rate limit, so its length is capped (the SDK's own limit). */
export const MAX_BATCH = 100;

function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  const text = Array.isArray(body) ? encodeMessages(body) : encodeMessage(body);
  return reply.code(status).header('Content-Type', 'application/json; charset=utf-8').send(text);
}

/** A refusal of admission, answered in the spec's envelope. */
function refusalAnswer(caught: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const error = caught instanceof ApiError ? caught : fromDatabase(caught);
  if (!error) throw caught;
  logErrorCode(request, error.code);
  return reply.code(error.status).headers(error.headers).send(errorBody(error.code, error.message));
}

/**
 * The admission pipeline both doors share (surfaces/admission.ts). The token's check may wait for
 * the body: a read tool's statement can carry it; any other message settles it before it is answered.
 */
async function admit(request: FastifyRequest, reply: FastifyReply, deps: McpDeps): Promise<FastifyReply | undefined> {
  try {
    const { principal, headers, check } = await admitRequest(deps, 'mcp', request, {});
    reply.headers(headers);
    request.mcpPrincipal = principal;
    if (check) request.mcpCheck = check;
    logWho(request, principal);
    return undefined;
  } catch (caught) {
    return refusalAnswer(caught, request, reply);
  }
}

/** Whether a body is one tools/call of a read tool, or of a change checked by its first read: the one message whose statement may carry the token's check. */
function carriesTokenCheck(body: unknown, toolset: Toolset): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } | null };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return false;
  const op = toolset.byName.get(params.name)?.op;
  return op !== undefined && (op.access === 'read' || op.checkedByFirstRead);
}

/** The body as JSON-RPC and the protocol version it speaks, or the answer that refuses it. */
function readBody(request: FastifyRequest): { body: unknown; version: ProtocolVersion } | { status: number; refusal: Answer } {
  if (!isJsonContentType(request)) {
    return {
      status: 415,
      refusal: rpcError(null, ErrorCode.InvalidRequest, 'The body must be JSON-RPC in UTF-8, sent with Content-Type: application/json'),
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(typeof request.body === 'string' ? request.body : '');
  } catch {
    return { status: 400, refusal: rpcError(null, ErrorCode.ParseError, 'Parse error: the body is not valid JSON') };
  }
  const version = isInitialize(body) ? VERSION_WITHOUT_HEADER : requestVersion(request);
  if (version === 'unsupported') {
    const message = `Bad Request: unsupported MCP-Protocol-Version ${String(request.headers['mcp-protocol-version'])}; this server speaks ${PROTOCOL_VERSIONS.join(', ')}`;
    return { status: 400, refusal: rpcError(null, ErrorCode.InvalidRequest, message) };
  }
  return { body, version };
}

/** What a single message asks for, for the log line: the tool of a tools/call, else the method. */
function operationOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return 'invalid';
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } | null };
  if (method === 'tools/call' && typeof params?.name === 'string') return params.name;
  return typeof method === 'string' ? method : 'invalid';
}

/** The 2025-11-25 transport: no header means 2025-03-26; a version we do not speak is 400. */
function requestVersion(request: FastifyRequest): ProtocolVersion | 'unsupported' {
  const header = request.headers['mcp-protocol-version'];
  if (header === undefined) return VERSION_WITHOUT_HEADER;
  return isProtocolVersion(header) ? header : 'unsupported';
}

function isJsonContentType(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  // what clients send, decided without the two regular expressions
  if (type === 'application/json') return true;
  return typeof type === 'string' && /^application\/json\s*(;|$)/i.test(type) && isUtf8(type);
}

/**
 * `/mcp`: Streamable HTTP, stateless, JSON answers only (spec 4.8 items 1-7). Our own small
 * JSON-RPC endpoint: the SDK's server transport departs from the spec's batch rules.
 */
export async function mcpEndpoint(app: FastifyInstance, deps: McpDeps): Promise<void> {
  const toolset = buildToolset(deps.registry);
  const largest = largestRequest(toolset);

  // The body is parsed here, not by Fastify, so that bad JSON is a JSON-RPC parse error (-32700).
  app.removeAllContentTypeParsers();
  const asText = (_request: FastifyRequest, body: string | Buffer, done: (error: null, body: unknown) => void) => done(null, body);
  // JSON by its name too: Fastify remembers a parser found by name, but parses the header afresh
  // for the catch-all on every request (about 2 µs of each call).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, asText);
  app.addContentTypeParser('*', { parseAs: 'string' }, asText);

  app.setErrorHandler(async (error: { statusCode?: number }, request, reply) => {
    // a body refused before the handler (too large) waits for the token's check like any answer
    const check = request.mcpCheck;
    request.mcpCheck = undefined;
    if (check && request.mcpPrincipal) {
      try {
        await settleAdmission(deps, 'mcp', request, undefined, check, request.mcpPrincipal);
      } catch (caught) {
        return refusalAnswer(caught, request, reply);
      }
    }
    const status = error.statusCode === 413 ? 413 : 500;
    if (status === 500) request.log.error({ err: error }, 'unexpected error at /mcp');
    const message = status === 413 ? tooLarge(largest) : internalErrorMessage(request.id);
    return sendJson(reply, status, rpcError(null, status === 413 ? ErrorCode.InvalidRequest : ErrorCode.InternalError, message));
  });

  // Spec 4.8 item 5: no event stream and no session, so only POST.
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: MCP_PATH,
    handler: async (_request, reply) =>
      sendJson(
        reply.header('Allow', 'POST'),
        405,
        rpcError(null, ErrorCode.InvalidRequest, 'Method not allowed: /mcp takes POST only; there is no event stream and no session'),
      ),
  });

  app.post(MCP_PATH, {
    // a page write takes more than other tools; each body is held to its own tool's limit below
    bodyLimit: largest,
    onRequest: async (request, reply) => admit(request, reply, deps),
    handler: async (request, reply) => {
      const held = request.mcpPrincipal;
      if (!held) throw new Error('admit did not run');
      let check = request.mcpCheck;
      request.mcpCheck = undefined;
      const read = readBody(request);
      const limit = 'body' in read ? requestLimitFor(read.body, toolset) : BODY_LIMIT;
      const oversized = longerThan(request.body, limit);
      let principal = held;
      if (check && (oversized || !('body' in read && carriesTokenCheck(read.body, toolset)))) {
        try {
          principal = await settleAdmission(deps, 'mcp', request, undefined, check, held);
        } catch (caught) {
          return refusalAnswer(caught, request, reply);
        }
        check = undefined;
      }
      if (oversized) return sendJson(reply, 413, rpcError(null, ErrorCode.InvalidRequest, tooLarge(limit)));
      if (!('body' in read)) return sendJson(reply, read.status, read.refusal);
      const { body, version } = read;
      const exchangeAs = (as: Principal, tokenCheck?: DeferredTokenCheck): Exchange => ({
        principal: as,
        version,
        runtime: deps.runtime,
        toolset,
        call: { door: 'mcp', requestId: request.id, log: request.log, ...(tokenCheck ? { tokenCheck } : {}) },
        serialize: (data, op) => serializerFor(op.response, deps.serializers, op.answerAsBuilt)(data),
      });
      const exchange = exchangeAs(principal);

      if (Array.isArray(body)) {
        if (body.length === 0) return sendJson(reply, 400, rpcError(null, ErrorCode.InvalidRequest, 'Invalid request: an empty batch'));
        if (body.length > MAX_BATCH) {
          return sendJson(
            reply,
            400,
            rpcError(null, ErrorCode.InvalidRequest, `Invalid request: a batch holds at most ${MAX_BATCH} messages`),
          );
        }
        const answers: Answer[] = [];
        // One after the other: a batch is an ordered list, and PGlite has one connection anyway.
        for (const message of body) {
          const answer = await answerMessage(message, exchange, true);
          if (answer) answers.push(answer);
        }
        return answers.length ? sendJson(reply, 200, answers) : reply.code(202).send();
      }
      logOperation(request, operationOf(body));
      let answer: Answer | null;
      if (check) {
        try {
          ({ result: answer } = await runChecked(deps, 'mcp', request, undefined, { principal, check }, (as, tokenCheck) =>
            answerMessage(body, exchangeAs(as, tokenCheck), false),
          ));
        } catch (caught) {
          return refusalAnswer(caught, request, reply);
        }
      } else {
        answer = await answerMessage(body, exchange, false);
      }
      if (!answer) return reply.code(202).send();
      // A body that is not a JSON-RPC message at all is a bad request; any other answer is a 200.
      const unusable = 'error' in answer && answer.error.code === ErrorCode.InvalidRequest && answer.id === null;
      return sendJson(reply, unusable ? 400 : 200, answer);
    },
  });
}
