import { isLoopbackAlias } from '../../config/loopback-alias.ts';
import { InvalidTarget } from '../errors.ts';

/**
 * The resource a token is for (RFC 8707). Left out: the workspace itself. Given: an absolute URI
 * without fragment or query on the workspace's own origin, under its path; scheme and host are
 * compared case-insensitively and a trailing slash is dropped (the MCP canonical form). A loopback
 * alias of the workspace's origin (127.0.0.1 for localhost) names the same resource and is
 * recorded as the workspace's own spelling.
 */
export function checkResource(raw: string | undefined, publicUrl: string): string {
  if (raw === undefined) return publicUrl;
  const refuse = () => new InvalidTarget('resource must be this workspace (its own host), without fragment or query');
  if (!/^[\x21-\x7e]+$/.test(raw) || raw.includes('#') || raw.includes('?')) throw refuse();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse();
  }
  const base = new URL(publicUrl);
  if (url.username || url.password) throw refuse();
  if (url.origin !== base.origin && !isLoopbackAlias(url, base)) throw refuse();
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(raw)) throw refuse();
  const path = url.pathname.replace(/\/+$/, '');
  const basePath = base.pathname.replace(/\/+$/, '');
  if (path !== basePath && !path.startsWith(`${basePath}/`)) throw refuse();
  return `${base.origin}${path}`;
}
