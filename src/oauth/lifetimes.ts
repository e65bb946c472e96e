/** Lifetimes of spec 5.2 and 8, in seconds. */
export const CODE_LIFETIME = 60;
export const ACCESS_TOKEN_LIFETIME = 3600;
/** Sliding: thirty days from the refresh token's last use, with no absolute cap (checklist decision 7). */
export const REFRESH_TOKEN_LIFETIME = 30 * 24 * 3600;
/** How long the consent page waits for the member's answer. */
export const CONSENT_LIFETIME = 10 * 60;
/** A client with no connection and no pending code may be removed this long after its last use. */
export const UNUSED_CLIENT_DAYS = 30;

export function secondsFrom(now: Date, seconds: number): string {
  return new Date(now.getTime() + seconds * 1000).toISOString();
}
