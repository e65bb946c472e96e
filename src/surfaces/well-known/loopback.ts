import type { FastifyRequest } from 'fastify';
import { isLoopbackAlias } from '../../config/loopback-alias.ts';

/**
 * The workspace's address as this request wrote it when that is a loopback alias of PUBLIC_URL,
 * else PUBLIC_URL. Only the resource metadata and the 401 challenge use it; the issuer, tokens'
 * audiences and every `url` field stay PUBLIC_URL.
 */
export function addressAsRequested(publicUrl: string, request: FastifyRequest): string {
  const base = new URL(publicUrl);
  let used: URL;
  try {
    used = new URL(`${request.protocol}://${request.host}`);
  } catch {
    return publicUrl;
  }
  if (used.origin === base.origin || !isLoopbackAlias(used, base)) return publicUrl;
  return `${used.origin}${base.pathname.replace(/\/+$/, '')}`;
}
