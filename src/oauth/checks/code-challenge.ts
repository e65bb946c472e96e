import { InvalidRequest } from '../errors.ts';

/** PKCE is required and S256 only (spec 5.2; RFC 7636): 43 base64url characters. */
export function checkCodeChallenge(challenge: string | undefined, method: string | undefined): string {
  if (challenge === undefined) throw new InvalidRequest('code_challenge is required (PKCE with S256)');
  if (method === undefined) throw new InvalidRequest('code_challenge_method must be provided and be S256');
  if (method !== 'S256') throw new InvalidRequest('code_challenge_method must be S256');
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) throw new InvalidRequest('code_challenge must be 43 base64url characters (S256)');
  return challenge;
}
