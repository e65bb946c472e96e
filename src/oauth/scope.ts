import type { Access } from '../policy/ability.ts';

export const READ_SCOPE = 'tickets:read';
export const WRITE_SCOPE = 'tickets:write';
export const SCOPES = [READ_SCOPE, WRITE_SCOPE] as const;

/** The two grantable scope strings, in their canonical order. */
export type GrantedScope = 'tickets:read' | 'tickets:read tickets:write';

export function scopeFor(access: Access): GrantedScope {
  return access === 'write' ? `${READ_SCOPE} ${WRITE_SCOPE}` : READ_SCOPE;
}

/** The access level a granted scope gives (spec 5.3). */
export function accessOf(scope: string): Access {
  return scope.split(' ').includes(WRITE_SCOPE) ? 'write' : 'read';
}

/**
 * A requested scope as an access level, or null when it names anything unknown. Order does not
 * matter and `tickets:write` alone means read and write (checklist decision 5).
 */
export function parseScope(raw: string): Access | null {
  const words = raw.split(' ').filter((word) => word !== '');
  if (words.length === 0) return null;
  if (words.some((word) => word !== READ_SCOPE && word !== WRITE_SCOPE)) return null;
  return words.includes(WRITE_SCOPE) ? 'write' : 'read';
}
