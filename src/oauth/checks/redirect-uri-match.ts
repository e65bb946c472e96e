import { redirectUriProblem } from './redirect-uri-shape.ts';

const LOOPBACK_PORT = /^(http:\/\/(?:localhost|127\.0\.0\.1|\[::1\]))(?::\d{1,5})?([/?].*)?$/;

function withoutLoopbackPort(uri: string): string | null {
  const match = LOOPBACK_PORT.exec(uri);
  return match ? `${match[1]}${match[2] ?? ''}` : null;
}

/**
 * Whether a requested redirect URI is one the client registered: the same string, except that an
 * http loopback URI may use any port (OAuth 2.1 loopback redirection). The registered URI is
 * checked again here, so a bad one stored by any other route is never used.
 */
export function isRegisteredRedirect(requested: string, registered: readonly string[]): boolean {
  if (redirectUriProblem(requested) !== null) return false;
  return registered.some((candidate) => {
    if (redirectUriProblem(candidate) !== null) return false;
    if (candidate === requested) return true;
    const loopback = withoutLoopbackPort(candidate);
    return loopback !== null && loopback === withoutLoopbackPort(requested);
  });
}
