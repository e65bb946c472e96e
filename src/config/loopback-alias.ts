const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Two addresses of this machine that name the same server: same scheme and port, both hosts
 * loopback (`http://127.0.0.1:8080` and `http://localhost:8080`). The server listens on 127.0.0.1
 * while PUBLIC_URL says localhost, and an MCP client holds the resource metadata to the very URL
 * it was given (RFC 9728 §3.3), so both spellings must work.
 */
export function isLoopbackAlias(url: URL, base: URL): boolean {
  return url.protocol === base.protocol && url.port === base.port && LOOPBACK_HOSTS.has(url.hostname) && LOOPBACK_HOSTS.has(base.hostname);
}
