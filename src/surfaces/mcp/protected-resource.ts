import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../core/errors.ts';
import { readSettings } from '../../core/settings.ts';
import type { Runtime } from '../../core/execute.ts';
import { addressAsRequested } from '../well-known/loopback.ts';
import { protectedResourceMetadata } from '../well-known/protected-resource.ts';

export const MCP_PATH = '/mcp';

/** RFC 9728 metadata of the MCP server; it answers 404 while the MCP server is switched off (spec 4.8). */
export async function mcpProtectedResource(app: FastifyInstance, options: { runtime: Runtime }): Promise<void> {
  const { publicUrl } = options.runtime;
  app.get(`/.well-known/oauth-protected-resource${MCP_PATH}`, async (request, reply) => {
    // A switch flips this answer, so nobody may keep it.
    reply.header('Cache-Control', 'no-store');
    const settings = await readSettings(options.runtime.db);
    if (!settings.mcp) {
      return reply.code(404).send(errorBody('not_found', 'The MCP server is switched off in this workspace'));
    }
    const base = addressAsRequested(publicUrl, request);
    return {
      ...protectedResourceMetadata(publicUrl, base),
      resource: `${base}${MCP_PATH}`,
      resource_name: 'Atrium MCP server',
    };
  });
}
