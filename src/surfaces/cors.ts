import type { FastifyInstance } from 'fastify';
import { errorBody } from '../core/errors.ts';

/** Names the parameters and fields a REST request sent that the operation does not take (spec 4 ignores them). */
export const IGNORED_HEADER = 'Atrium-Ignored-Parameters';

/** Paths any origin may call (spec 4.10); the browser pages are not among them. */
const CROSS_ORIGIN_PATHS = [/^\/api(\/|$)/, /^\/mcp(\/|$|\?)/, /^\/oauth\/(register|token|revoke)(\/|$|\?)/, /^\/\.well-known\//];

export function isCrossOriginPath(url: string): boolean {
  return CROSS_ORIGIN_PATHS.some((pattern) => pattern.test(url));
}

const EXPOSED_HEADERS = [
  'WWW-Authenticate',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  IGNORED_HEADER,
].join(', ');

const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, X-Request-Id',
  'Access-Control-Max-Age': '600',
};

/**
 * CORS for the paths any origin may call: any origin, never credentials (spec 4.10), so every
 * header is a constant written as is. A general CORS plugin resolved its options again on each
 * request, which cost more than the rest of a GET /me's own hooks (ADR 0016). A preflight is
 * answered here, before authentication: a browser sends it without the request's Authorization.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (request, reply, done) => {
    if (!isCrossOriginPath(request.url)) return done();
    reply.header('Access-Control-Allow-Origin', '*').header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (request.method !== 'OPTIONS') return done();
    if (!request.headers.origin || !request.headers['access-control-request-method']) {
      // as a request that is not valid HTTP (rest/error-handler.ts): 400, in the spec's shape
      reply
        .code(400)
        .send(errorBody('invalid', '/: OPTIONS here is a CORS preflight and needs the Origin and Access-Control-Request-Method headers'));
      return;
    }
    reply.headers(PREFLIGHT_HEADERS).code(204).header('Content-Length', '0').send();
  });

  // Lets a preflight be routed at all; on a path without CORS it is an unknown route.
  app.options('*', (_request, reply) => {
    reply.callNotFound();
  });

  // Defence in depth: nothing on these paths may set a cookie (spec 4.10), whichever hook answered.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isCrossOriginPath(request.url)) reply.removeHeader('set-cookie');
    done(null, payload);
  });
}
