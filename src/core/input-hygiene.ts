import type { ErrorObject } from 'ajv';

/** How deep arrays and objects may nest in one part of a request: far beyond any field the API takes. */
export const MAX_NESTING = 32;

const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Input nested deeper than MAX_NESTING, found without recursion (a stack of its own), so that
 * the passes after it — the schema's, the one below — recurse a bounded number of levels. The
 * pointer names the top-level field that holds it.
 */
export function nestingError(data: unknown): ErrorObject | null {
  if (data === null || typeof data !== 'object') return null;
  const stack: { value: object; depth: number; top: string }[] = [{ value: data, depth: 0, top: '' }];
  const push = (value: unknown, depth: number, top: string) => {
    if (value !== null && typeof value === 'object') stack.push({ value, depth, top });
  };
  while (stack.length > 0) {
    const { value, depth, top } = stack.pop()!;
    if (depth >= MAX_NESTING) {
      return problem(top || '/', `nests arrays or objects more than ${MAX_NESTING} levels deep`);
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) push(value[i], depth + 1, top || `/${i}`);
    } else {
      for (const key in value) push((value as Record<string, unknown>)[key], depth + 1, top || `/${escapeKey(key)}`);
    }
  }
  return null;
}

/**
 * Text no column can hold, refused at validation (422 naming the field) rather than by the
 * database later (a 500): U+0000 (PostgreSQL text cannot store it) and lone UTF-16 surrogates
 * (not Unicode; JSON columns refuse them). Keys of objects are text too. Numbers are held to their
 * columns by their schemas (`INT32_MAX`, `Offset`). ARCHITECTURE §9; ADR 0013. It recurses:
 * nestingError bounds the depth first.
 */
export function hygieneError(data: unknown, path = ''): ErrorObject | null {
  if (typeof data === 'string') return textProblem(data, path);
  if (Array.isArray(data)) {
    for (const [i, item] of data.entries()) {
      const found = hygieneError(item, `${path}/${i}`);
      if (found) return found;
    }
    return null;
  }
  if (data !== null && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) {
      const at = `${path}/${escapeKey(key)}`;
      const found = textProblem(key, at) ?? hygieneError(value, at);
      if (found) return found;
    }
  }
  return null;
}

function textProblem(text: string, path: string): ErrorObject | null {
  if (text.includes('\u0000')) return problem(path, 'must not contain the NUL character (U+0000)');
  if (!text.isWellFormed()) return problem(path, 'must be well-formed Unicode (it holds a lone UTF-16 surrogate)');
  return null;
}

function problem(instancePath: string, message: string): ErrorObject {
  // the pointer names the field readably: control characters in a key are shown escaped
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are written as escapes in the message
  const readable = instancePath.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return { instancePath: readable, schemaPath: '#', keyword: 'hygiene', params: {}, message };
}
