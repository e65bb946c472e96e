/**
 * Frozen lists of strings bound as parameters, written as PostgreSQL array text once per list.
 * A member's scope (the projects and security levels they may see) is a frozen list that a
 * token's requests share; pg wrote it into `{…}` text again at every use, which was six lists of
 * UUIDs and about a fifth of the bytes a GET of a ticket allocated (ADR 0036). A frozen list
 * cannot change, so its text can be kept for as long as the list lives. The text is the one pg
 * writes for the same list: every element quoted, backslashes and double quotes escaped.
 */
const texts = new WeakMap<readonly unknown[], string>();

const quoted = (element: string) => `"${element.replace(/[\\"]/g, '\\$&')}"`;

function frozenText(list: readonly unknown[]): string | null {
  let text = texts.get(list);
  if (text === undefined) {
    if (!list.every((element) => typeof element === 'string')) return null;
    text = `{${(list as readonly string[]).map(quoted).join(',')}}`;
    texts.set(list, text);
  }
  return text;
}

/** `values` with each frozen list of strings replaced by its array text; the same array when there is none. */
export function withArrayTexts(values: readonly unknown[]): readonly unknown[] {
  let replaced: unknown[] | null = null;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (!Array.isArray(value) || !Object.isFrozen(value)) continue;
    const text = frozenText(value);
    if (text !== null) (replaced ??= [...values])[i] = text;
  }
  return replaced ?? values;
}
