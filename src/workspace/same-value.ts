/**
 * Whether a stored column already holds the value the file asks for. JSON columns come back as
 * objects but are written as text, and PostgreSQL reorders a jsonb object's keys, so both sides
 * are compared as data, ignoring key order.
 */
export function sameValue(stored: unknown, wanted: unknown): boolean {
  if (typeof wanted === 'string' && stored !== null && typeof stored === 'object') {
    return sameData(stored, JSON.parse(wanted));
  }
  return sameData(stored, wanted);
}

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameData(item, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const otherKeys = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return keys.length === otherKeys.length && keys.every((k) => sameData(ra[k], rb[k]));
}
