import type { FastifyInstance } from 'fastify';

/**
 * Headers of every browser page (login, consent, error, agents, settings): no framing, no
 * referrer, no caching, nothing run or loaded but our own stylesheet and scripts from /assets
 * (no inline script, handler or style, no eval), and the page's own fetches and event stream.
 * No `form-action`: Chrome applies it to the redirect after the consent POST and would block the
 * way back to the client.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': `default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'`,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

export function addPageHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(PAGE_HEADERS);
    return payload;
  });
}
