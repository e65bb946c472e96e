import { createHash, timingSafeEqual } from 'node:crypto';
import { InvalidGrant, InvalidRequest } from '../errors.ts';

/** The verifier matches the challenge the code was issued for (RFC 7636 §4.6), compared in constant time. */
export function checkCodeVerifier(verifier: string | undefined, challenge: string): void {
  if (verifier === undefined) throw new InvalidGrant('code_verifier is required');
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) {
    throw new InvalidRequest('code_verifier must be 43 to 128 characters from A-Z a-z 0-9 - . _ ~');
  }
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  if (computed.length !== expected.length || !timingSafeEqual(computed, expected)) {
    throw new InvalidGrant('code_verifier does not match the code_challenge');
  }
}
