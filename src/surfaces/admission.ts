import type { FastifyRequest } from 'fastify';
import { authenticate } from '../auth/bearer.ts';
import { ApiError } from '../core/errors.ts';
import { admissionRefusal, type Principal, type Runtime } from '../core/execute.ts';
import type { Operation } from '../core/operation.ts';
import { MCP_PATH } from './mcp/protected-resource.ts';
import { rateLimitHeaders, type RateLimiter } from './rate-limit.ts';
import { addressAsRequested } from './well-known/loopback.ts';
import { bearerChallenge } from './well-known/protected-resource.ts';

/** The two doors to the operations; each is switched on and off by itself (spec 5, item 2). */
export type ApiDoor = 'rest' | 'mcp';

export interface AdmissionDeps {
  runtime: Runtime;
  /** One budget per token across both doors. */
  limiter: RateLimiter;
}

const SWITCHED_OFF: Record<ApiDoor, { on: (principal: Principal) => boolean; message: string }> = {
  rest: { on: (p) => p.settings.restApi, message: 'The REST API is switched off in this workspace; an administrator can switch it on' },
  mcp: { on: (p) => p.settings.mcp, message: 'The MCP server is switched off in this workspace; an administrator can switch it on' },
};

/** Where each door's protected-resource metadata is, for the 401's challenge. */
const METADATA_PATH: Record<ApiDoor, string> = { rest: '', mcp: MCP_PATH };

export interface Admitted {
  principal: Principal;
  /** The rate-limit headers every authenticated answer carries. */
  headers: Record<string, string>;
}

/**
 * The one admission pipeline of both doors (ARCHITECTURE §3, §9), before any body is read: bearer
 * token (401 with the challenge that starts OAuth) → the door's switch (403) → per-token rate
 * limit (429). A refusal is an ApiError carrying the headers its answer needs.
 */
export async function admitRequest(deps: AdmissionDeps, door: ApiDoor, request: FastifyRequest): Promise<Admitted> {
  const { authorization } = request.headers;
  let principal: Principal;
  try {
    principal = await authenticate(deps.runtime.db, authorization, deps.runtime.now());
  } catch (error) {
    if (error instanceof ApiError) {
      // RFC 6750 §3.1: no error code when the request carried no credentials at all.
      const base = addressAsRequested(deps.runtime.publicUrl, request);
      error.headers['WWW-Authenticate'] = bearerChallenge(base, METADATA_PATH[door], authorization ? 'invalid_token' : undefined);
    }
    throw error;
  }
  const gate = SWITCHED_OFF[door];
  if (!gate.on(principal)) throw new ApiError('feature_disabled', gate.message);
  const decision = deps.limiter.take(principal.agent.tokenId);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) throw new ApiError('rate_limited', 'Too many requests with this token; wait a minute and try again', headers);
  return { principal, headers };
}

/**
 * The refusals no input can change, for one operation, before its input is validated: the
 * module is switched off (403 `feature_disabled`), or a read token asks for a change (403
 * `forbidden`, spec 4: "refuses every change"). The same for both doors.
 */
export function admitOperation(op: Operation, principal: Principal): void {
  const refused = admissionRefusal(op, principal);
  if (refused) throw refused;
}
