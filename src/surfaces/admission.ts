import type { FastifyRequest } from 'fastify';
import { authenticate, authenticateDeferred, tokenRefused, type DeferredTokenCheck } from '../auth/bearer.ts';
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
  /** The token's check, when it waits for the operation's read: settleAdmission before answering. */
  check: DeferredTokenCheck | null;
}

/** A 401 of either door carries the challenge that starts OAuth. */
function challenged(error: unknown, deps: AdmissionDeps, door: ApiDoor, request: FastifyRequest): unknown {
  if (error instanceof ApiError) {
    const { authorization } = request.headers;
    const base = addressAsRequested(deps.runtime.publicUrl, request);
    // RFC 6750 §3.1: no error code when the request carried no credentials at all.
    error.headers['WWW-Authenticate'] = bearerChallenge(base, METADATA_PATH[door], authorization ? 'invalid_token' : undefined);
  }
  return error;
}

async function checkedPrincipal(deps: AdmissionDeps, door: ApiDoor, request: FastifyRequest): Promise<Principal> {
  try {
    return await authenticate(deps.runtime.db, request.headers.authorization, deps.runtime.now());
  } catch (error) {
    throw challenged(error, deps, door, request);
  }
}

/** Why a principal may not pass this door, or run this operation, whatever its input; null when it may. */
function refusalFor(door: ApiDoor, principal: Principal, op: Operation | undefined): ApiError | null {
  const gate = SWITCHED_OFF[door];
  if (!gate.on(principal)) return new ApiError('feature_disabled', gate.message);
  return op ? admissionRefusal(op, principal) : null;
}

/**
 * The one admission pipeline of both doors (ARCHITECTURE §3, §9), before any body is read: bearer
 * token (401 with the challenge that starts OAuth) → the door's switch (403) → per-token rate
 * limit (429). A refusal is an ApiError carrying the headers its answer needs.
 *
 * With `defer` (a read; `op` when known), a token the process holds is let through on its held
 * principal and its check is left to the read's statement (`check`). A refusal is only ever
 * decided on a checked principal: one the held principal would meet settles the check first.
 */
export async function admitRequest(
  deps: AdmissionDeps,
  door: ApiDoor,
  request: FastifyRequest,
  defer?: { op?: Operation },
): Promise<Admitted> {
  let principal: Principal;
  let check: DeferredTokenCheck | null = null;
  if (defer) {
    try {
      ({ principal, check } = await authenticateDeferred(deps.runtime.db, request.headers.authorization, deps.runtime.now()));
    } catch (error) {
      throw challenged(error, deps, door, request);
    }
    if (check && refusalFor(door, principal, defer.op)) {
      principal = await settledPrincipal(deps, door, request, check, principal);
      check = null;
    }
  } else {
    principal = await checkedPrincipal(deps, door, request);
  }
  const refused = refusalFor(door, principal, undefined);
  if (refused) throw refused;
  const decision = deps.limiter.take(principal.agent.tokenId);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) throw new ApiError('rate_limited', 'Too many requests with this token; wait a minute and try again', headers);
  return { principal, headers, check };
}

/** The principal a deferred check leaves: the held one while current, a fresh one when stale; 401 when refused. */
async function settledPrincipal(
  deps: AdmissionDeps,
  door: ApiDoor,
  request: FastifyRequest,
  check: DeferredTokenCheck,
  held: Principal,
): Promise<Principal> {
  const verdict = await check.settle();
  if (verdict === 'current') return held;
  if (verdict === 'refused') throw challenged(tokenRefused(), deps, door, request);
  return checkedPrincipal(deps, door, request);
}

/**
 * Settles a deferred check before the request is answered: the principal to answer for (the held
 * one, or a fresh one when the structure changed since it was read, admitted again), or the 401 or
 * 403 the token now meets.
 */
export async function settleAdmission(
  deps: AdmissionDeps,
  door: ApiDoor,
  request: FastifyRequest,
  op: Operation | undefined,
  check: DeferredTokenCheck,
  held: Principal,
): Promise<Principal> {
  const principal = await settledPrincipal(deps, door, request, check, held);
  if (principal !== held) {
    const refused = refusalFor(door, principal, op);
    if (refused) throw refused;
  }
  return principal;
}

/**
 * Runs a read admitted with a deferred check: the read carries the check, then the check decides
 * what is answered — the read's outcome, a 401 or 403, or, for a principal that went stale, the
 * read made again for the principal as it is now.
 */
export async function runChecked<T>(
  deps: AdmissionDeps,
  door: ApiDoor,
  request: FastifyRequest,
  op: Operation | undefined,
  admitted: { principal: Principal; check: DeferredTokenCheck },
  run: (principal: Principal, check?: DeferredTokenCheck) => Promise<T>,
): Promise<{ principal: Principal; result: T }> {
  const first = await run(admitted.principal, admitted.check).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const principal = await settleAdmission(deps, door, request, op, admitted.check, admitted.principal);
  if (principal !== admitted.principal) return { principal, result: await run(principal) };
  if ('error' in first) throw first.error;
  return { principal, result: first.value };
}

/**
 * The refusals no input can change, for one operation, before its input is validated: the
 * module is switched off (403 `feature_disabled`), or a change is asked of a workspace its
 * operator made read-only (403 `forbidden`, spec 5.6) or with a read token (403 `forbidden`,
 * spec 4: "refuses every change"). The same for both doors.
 */
export function admitOperation(op: Operation, principal: Principal): void {
  const refused = admissionRefusal(op, principal);
  if (refused) throw refused;
}
