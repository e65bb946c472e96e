/** The request body every operation takes; more only where its schemas allow a longer input. */
export const BODY_LIMIT = 1024 * 1024;

const MIB = 1024 * 1024;
// The most a JSON text may spend on one character as JSON Schema counts them (a code point): one
// outside the Basic Multilingual Plane written as two `\uXXXX` escapes. Any UTF-16 unit fits in 6.
const BYTES_PER_CHARACTER = 12;
const BYTES_PER_UNIT = 6;
// What no schema bounds: whitespace between tokens, and the envelope of an MCP call.
const ALLOWANCE = 64 * 1024;

/** The parts of a JSON Schema that bound the length of its JSON text. */
interface Bounds {
  type?: unknown;
  properties?: Record<string, Bounds>;
  anyOf?: Bounds[];
  oneOf?: Bounds[];
  enum?: unknown[];
  const?: unknown;
  maxLength?: number;
  items?: Bounds;
  maxItems?: number;
}

/** A known value written with every character escaped. */
function escapedBytes(value: unknown): number {
  const text = JSON.stringify(value) ?? '';
  return typeof value === 'string' ? 2 + BYTES_PER_UNIT * value.length : text.length;
}

/**
 * The longest JSON text of any value the schema accepts, every character written the longest way
 * an encoder may: Infinity when the schema does not bound it.
 */
export function longestJson(schema: Bounds): number {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return Math.max(...options.map(longestJson));
  if (schema.enum) return Math.max(...schema.enum.map(escapedBytes));
  if (schema.const !== undefined) return escapedBytes(schema.const);
  switch (schema.type) {
    case 'null':
      return 4;
    case 'boolean':
      return 5;
    case 'integer':
    case 'number':
      // -1.7976931348623157e+308
      return 24;
    case 'string':
      return schema.maxLength === undefined ? Infinity : 2 + BYTES_PER_CHARACTER * schema.maxLength;
    case 'array':
      if (schema.maxItems === undefined || !schema.items) return Infinity;
      return 2 + schema.maxItems * (longestJson(schema.items) + 1);
    case 'object': {
      let bytes = 2;
      for (const [key, value] of Object.entries(schema.properties ?? {})) {
        bytes += escapedBytes(key) + 1 + longestJson(value) + 1;
      }
      return bytes;
    }
    default:
      return Infinity;
  }
}

/**
 * The largest request an operation takes, in bytes: 1 MiB, or — where every field is bounded and
 * together they allow more — enough for the longest input its schemas accept, so that a request
 * the schemas allow is never refused for its size (rounded up to whole MiB).
 */
export function requestLimitOf(inputs: readonly Bounds[]): number {
  const longest = inputs.reduce((sum, schema) => sum + longestJson(schema), 0) + ALLOWANCE;
  if (!Number.isFinite(longest) || longest <= BODY_LIMIT) return BODY_LIMIT;
  return Math.ceil(longest / MIB) * MIB;
}

/** A byte count as people read it: `1 MiB`, `12 MiB`. */
export function sizeText(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}
