import { candidateList, normalizeName } from '../core/names.ts';
import { fail, filePath, type PathPart } from './path.ts';

export function plural(what: string): string {
  if (what.endsWith('s')) return `${what}es`;
  if (/[^aeiou]y$/.test(what)) return `${what.slice(0, -1)}ies`;
  return `${what}s`;
}

/** A name that must be one of `names`: `…to: no status "Dnoe"; statuses are "To Do", "In Progress", "Done"`. */
export function requireName(names: readonly string[], given: string, path: string, what: string, where = ''): string {
  const wanted = normalizeName(given);
  const found = names.find((n) => normalizeName(n) === wanted);
  if (found !== undefined) return found;
  return fail(path, `no ${what} "${given.trim()}"${where}; ${plural(what)} are ${candidateList(given, names)}`);
}

/** Names within one list must differ (case and surrounding spaces ignored). */
export function requireUnique<T>(
  items: readonly T[],
  nameOf: (item: T) => string,
  basePath: readonly PathPart[],
  what: string,
  normalize: (name: string) => string = normalizeName,
): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const name = nameOf(item);
    const first = seen.get(normalize(name));
    if (first !== undefined) {
      fail(filePath(...basePath, index), `${what} "${name.trim()}" is listed twice (also at ${filePath(...basePath, first)})`);
    }
    seen.set(normalize(name), index);
  });
}

/** The name of an entry that may be written as a bare name or as an object with a name. */
export function entryName(entry: string | { name: string }): string {
  return typeof entry === 'string' ? entry : entry.name;
}
