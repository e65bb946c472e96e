import type { Access } from '../../policy/ability.ts';
import { InvalidScope } from '../errors.ts';
import { parseScope } from '../scope.ts';

/**
 * The access asked for. Left out: what the client registered (by default write, spec 5.2);
 * anything unknown, or wider than the client registered, is invalid_scope.
 */
export function checkRequestedScope(raw: string | undefined, registered: Access): Access {
  if (raw === undefined) return registered;
  const access = parseScope(raw);
  if (!access) throw new InvalidScope('scope must be tickets:read, or tickets:read tickets:write');
  if (access === 'write' && registered === 'read') throw new InvalidScope('This application registered for tickets:read only');
  return access;
}
