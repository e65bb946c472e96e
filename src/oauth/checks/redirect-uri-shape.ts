/** Schemes that run code or reach local data in a browser: never a place to send a code. */
const DANGEROUS_SCHEMES = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'blob',
  'about',
  'mailto',
  'filesystem',
  'view-source',
  'chrome',
  'chrome-extension',
  'ws',
  'wss',
  'ftp',
  'tel',
  'sms',
  'intent',
]);

/** Loopback means exactly these host literals (checklist decision 9). */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

export const MAX_REDIRECT_URI_LENGTH = 2000;

/**
 * Why a redirect URI cannot be registered, or null when it can (spec 5.2: https anywhere; http
 * only on loopback, any port; or the application's own scheme). The raw string is checked before
 * any parsing, because WHATWG URL parsing silently strips spaces and control characters.
 */
export function redirectUriProblem(raw: unknown): string | null {
  if (typeof raw !== 'string') return 'must be a string';
  if (raw === '') return 'must not be empty';
  if (raw.length > MAX_REDIRECT_URI_LENGTH) return `must be at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  // Printable ASCII only: no spaces, control characters, bidi controls or other look-alikes.
  if (!/^[\x21-\x7e]+$/.test(raw)) return 'must contain only printable ASCII characters, no spaces or control characters';
  if (raw.includes('#')) return 'must not contain a fragment (#)';
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1];
  if (!scheme) return 'must be an absolute URI with a scheme';
  const lower = scheme.toLowerCase();
  if (DANGEROUS_SCHEMES.has(lower)) return `the ${lower}: scheme is not allowed`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URI';
  }
  if (url.username || url.password || /^[^:]+:\/\/[^/?]*@/.test(raw)) return 'must not carry a user name or password';
  if (lower === 'https' || lower === 'http') {
    if (scheme !== lower) return 'the scheme must be written in lower case';
    const authority = /^https?:\/\/([^/?]*)/.exec(raw)?.[1] ?? '';
    const host = authority.replace(/:\d{1,5}$/, '');
    if (!host || !/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[::1\]$/.test(host))
      return 'must name a host in lower-case letters, digits, dots and hyphens';
    if (lower === 'http' && !(LOOPBACK_HOSTS as readonly string[]).includes(host)) {
      return 'http is allowed only on localhost, 127.0.0.1 or [::1]; use https';
    }
    return null;
  }
  // The application's own scheme (com.example.app:/cb, or cursor://… without a dot: decision 3).
  if (raw.length === scheme.length + 1) return 'must have something after the scheme';
  return null;
}
