/**
 * The redirect URI with response parameters added to its query (a registered query is kept).
 * `iss` goes on every response, success or error (RFC 9207, checklist decision 10).
 */
export function authorizationResponse(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, value);
  return `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${query.toString()}`;
}
