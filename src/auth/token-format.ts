import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIXES = {
  personal: 'svc_pat_',
  oauthAccess: 'svc_oat_',
  oauthRefresh: 'svc_ort_',
  clientId: 'svc_client_',
  clientSecret: 'svc_cs_',
} as const;

/** A new secret: the prefix and 32 random bytes in base64url (spec 5.4). */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Only this hash is stored; the secret itself is shown once and forgotten. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
