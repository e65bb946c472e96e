import type { FastifyInstance } from 'fastify';
import { addressAsRequested } from './loopback.ts';

export const SCOPES = ['tickets:read', 'tickets:write'] as const;

/**
 * RFC 9728 metadata for the REST API. Its resource is the workspace itself (ADR 0020), as the
 * client addressed it when that is a loopback alias; the authorization server is always PUBLIC_URL.
 */
export function protectedResourceMetadata(publicUrl: string, resourceBase = publicUrl) {
  return {
    resource: resourceBase,
    authorization_servers: [publicUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Atrium REST API',
    resource_documentation: `${publicUrl}/api/v1/openapi.json`,
  };
}

export function protectedResourceMetadataUrl(publicUrl: string, path = ''): string {
  return `${publicUrl}/.well-known/oauth-protected-resource${path}`;
}

/** `WWW-Authenticate` for a 401 at a protected resource (spec 5.2). */
export function bearerChallenge(publicUrl: string, metadataPath = '', error?: 'invalid_token'): string {
  const parts = [`realm="atrium"`];
  if (error) parts.push(`error="${error}"`);
  parts.push(`resource_metadata="${protectedResourceMetadataUrl(publicUrl, metadataPath)}"`);
  return `Bearer ${parts.join(', ')}`;
}

export async function wellKnownRoutes(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  app.get('/.well-known/oauth-protected-resource', async (request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return protectedResourceMetadata(options.publicUrl, addressAsRequested(options.publicUrl, request));
  });
}
