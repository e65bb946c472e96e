import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../core/registry.ts';
import { buildOpenApiDocument } from './document.ts';

/** GET /api/v1/openapi.json, no token needed (spec 4.9); built once, it never changes at run time. */
export async function openApiRoute(app: FastifyInstance, options: { registry: Registry; publicUrl: string }): Promise<void> {
  const body = JSON.stringify(buildOpenApiDocument(options.registry, options.publicUrl));
  app.get('/api/v1/openapi.json', async (_request, reply) => {
    reply.type('application/json; charset=utf-8');
    return body;
  });
}
