import type { FastifyInstance } from 'fastify';
import { authorizationServerMetadata } from '../metadata.ts';

/** GET /.well-known/oauth-authorization-server; the issuer is PUBLIC_URL whatever Host the request names. */
export function metadataRoute(app: FastifyInstance, publicUrl: string): void {
  const document = authorizationServerMetadata(publicUrl);
  app.get('/.well-known/oauth-authorization-server', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return document;
  });
}
