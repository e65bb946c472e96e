import { ApiError, invalid } from './errors.ts';

export const MAX_CANDIDATES = 25;

/** How names compare everywhere (spec 2.1): case-insensitive, surrounding spaces ignored. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase();
}

/** A label as stored: lowercased, spaces as hyphens (spec 2.1). */
export function normalizeLabel(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '-');
}

/**
 * A name of spaces alone names nothing, and is refused as an empty one is (422 `invalid`), in a
 * body as in a query string; never matched against the candidates, never answered with their list.
 * Where the spec lets `null` or `""` clear a field, the caller clears before it resolves.
 */
export function refuseBlank(given: string, pointer: string): void {
  if (given.trim() === '') throw invalid(pointer, 'must not be blank');
}

/** Candidates most like what was typed first: same start, then containing it, then the rest. */
function likeness(given: string, name: string): number {
  const a = normalizeName(given);
  const b = normalizeName(name);
  if (b.startsWith(a) || a.startsWith(b)) return 0;
  if (b.includes(a) || a.includes(b)) return 1;
  return 2;
}

/** The names to list in a no-match message: up to 25, most alike first. */
/** Project and ticket keys (spec 2.1): upper case, surrounding spaces ignored. */
export const normalizeKey = (given: string): string => given.trim().toUpperCase();

export function candidateList(given: string, names: readonly string[]): string {
  const unique = [...new Set(names)];
  if (unique.length === 0) return 'there are none';
  const ordered = unique
    .map((name, index) => ({ name, index, score: likeness(given, name) }))
    .sort((x, y) => x.score - y.score || x.index - y.index)
    .slice(0, MAX_CANDIDATES)
    .map((c) => `"${c.name}"`);
  const more = unique.length > MAX_CANDIDATES ? ` (and ${unique.length - MAX_CANDIDATES} more)` : '';
  return ordered.join(', ') + more;
}

/** `priority` → `priorities`, `status` → `statuses`, `person` → `people`: for no-match messages. */
export function pluralOf(what: string): string {
  if (what === 'person') return 'people';
  if (/[^aeiou]y$/.test(what)) return `${what.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(what)) return `${what}es`;
  return `${what}s`;
}

export interface NameOptions<T> {
  /** JSON pointer of the field that held the name, e.g. `/priority`. */
  pointer: string;
  /** What is being named, singular: `priority`, `ticket type`. */
  what: string;
  /** The names a candidate answers to (its name, and perhaps its id or key). */
  names: (candidate: T) => readonly string[];
  /** The name to list in the message; the first of names() when left out. */
  display?: (candidate: T) => string;
}

/**
 * The one resolver for every "named by" row of spec 2.1. A blank name is 422 (refuseBlank); a
 * miss is 422 `invalid` listing up to 25 names that would have matched.
 */
export function resolveName<T>(candidates: readonly T[], given: string, options: NameOptions<T>): T {
  refuseBlank(given, options.pointer);
  const wanted = normalizeName(given);
  const found = candidates.find((c) => options.names(c).some((n) => normalizeName(n) === wanted));
  if (found !== undefined) return found;
  const display = options.display ?? ((c: T) => options.names(c)[0] ?? '');
  throw new ApiError(
    'invalid',
    `${options.pointer}: no ${options.what} "${given.trim()}"; ${pluralOf(options.what)} are ${candidateList(given, candidates.map(display))}`,
  );
}
