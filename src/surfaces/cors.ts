import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Names the parameters and fields a REST request sent that the operation does not take (spec 4 ignores them). */
export const IGNORED_HEADER = 'Atrium-Ignored-Parameters';

/** Paths any origin may call (spec 4.10); the browser pages are not among them. */
const CROSS_ORIGIN_PATHS = [/^\/api(\/|$)/, /^\/mcp(\/|$|\?)/, /^\/oauth\/(register|token|revoke)(\/|$|\?)/, /^\/\.well-known\//];

export function isCrossOriginPath(url: string): boolean {
  return CROSS_ORIGIN_PATHS.some((pattern) => pattern.test(url));
}

export async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    hideOptionsRoute: true,
    delegator: (request, callback) => {
      if (!isCrossOriginPath(request.url ?? '')) return callback(null, { origin: false });
      callback(null, {
        origin: '*',
        credentials: false,
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        allowedHeaders: ['Authorization', 'Content-Type', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID', 'X-Request-Id'],
        exposedHeaders: ['WWW-Authenticate', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id', IGNORED_HEADER],
        maxAge: 600,
      });
    },
  });

  // Defence in depth: nothing on these paths may set a cookie (spec 4.10).
  app.addHook('onSend', async (request, reply, payload) => {
    if (isCrossOriginPath(request.url)) reply.removeHeader('set-cookie');
    return payload;
  });
}
