import type { ErrorObject } from 'ajv';

/**
 * Text no column can hold, refused at validation (422 naming the field) rather than by the
 * database later (a 500): U+0000 (PostgreSQL text cannot store it) and lone UTF-16 surrogates
 * (not Unicode; JSON columns refuse them). Keys of objects are text too. Numbers are held to their
 * columns by their schemas (`INT32_MAX`, `Offset`). ARCHITECTURE §9; ADR 0013.
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
      const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
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
  const readable = instancePath.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return { instancePath: readable, schemaPath: '#', keyword: 'hygiene', params: {}, message };
}
