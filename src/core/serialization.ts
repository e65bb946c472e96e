import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify from 'fast-json-stringify';

/** A response written as JSON text, only with what its schema declares. */
export type Serializer = (data: unknown) => string;

/** How answers are written: `checked` also holds each answer written as built against its schema's serializer (the tests). */
export type SerializerMode = 'fast' | 'checked';

/** Each schema's own serializer; in `checked` mode an answer written as built is also written by it. */
const bySchema = new WeakMap<object, Serializer>();
const asBuilt: Record<SerializerMode, WeakMap<object, Serializer>> = { fast: new WeakMap(), checked: new WeakMap() };

/** The schema's own serializer, compiled at its first answer. */
function schemaSerializer(schema: object): Serializer {
  let built: Serializer | null = null;
  return (data) => (built ??= fastJsonStringify(withNullableTypeLists(schema) as fastJsonStringify.AnySchema))(data) as string;
}

/**
 * JSON.stringify, for an operation whose presenter builds each object with exactly the schema's
 * fields (defineOperation's `answerAsBuilt`); in `checked` mode it refuses any answer the
 * schema's serializer would write otherwise. The schema's serializer writes a 500-card board as
 * some 30,000 joined strings, about 0.8 MB of garbage against JSON.stringify's one 127 KB string,
 * and the scavenges that garbage brings were about a fifth of the board's CPU (ADR 0044).
 */
function builtSerializer(schema: object, mode: SerializerMode): Serializer {
  if (mode === 'fast') return (data) => JSON.stringify(data);
  const declared = serializerFor(schema);
  return (data) => {
    const text = JSON.stringify(data);
    if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(declared(data)))) {
      throw new Error('an answer written as built differs from what its schema declares');
    }
    return text;
  };
}

/**
 * The serializer of an answer of `schema`, shared by the REST routes and the MCP tools so both
 * doors write byte-for-byte the same data. It is compiled at its first answer, not at start-up:
 * most processes answer a few of the operations, and every compiled schema holds generated code
 * (about 20 MiB for all of them; ADR 0044). `writtenAsBuilt` is the operation's, not the
 * schema's: another operation answering the same schema keeps the schema's serializer.
 */
export function serializerFor(schema: object, mode: SerializerMode = 'fast', writtenAsBuilt = false): Serializer {
  const cache = writtenAsBuilt ? asBuilt[mode] : bySchema;
  let serialize = cache.get(schema);
  if (!serialize) {
    serialize = writtenAsBuilt ? builtSerializer(schema, mode) : schemaSerializer(schema);
    cache.set(schema, serialize);
  }
  return serialize;
}

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{anyOf: [X, {type: 'null'}]}` with X of one plain type: what `Nullable(X)` declares. */
function nullableOf(node: SchemaNode): SchemaNode | null {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || Object.keys(node).some((k) => k !== 'anyOf')) return null;
  const nulls = options.filter((o) => isNode(o) && o.type === 'null' && Object.keys(o).length === 1);
  const other = options.find((o) => !nulls.includes(o));
  if (nulls.length !== 1 || !isNode(other) || typeof other.type !== 'string') return null;
  if (['anyOf', 'oneOf', 'allOf', 'const', '$ref', 'if'].some((k) => k in other)) return null;
  return other;
}

/**
 * The same schema with each `Nullable(X)` of a plain type written `type: [X, 'null']`, for the
 * serializer only. fast-json-stringify picks an `anyOf` branch by validating the value against
 * each one with Ajv — formats included, so every nullable date-time of every card was parsed
 * twice (a third of a 500-card board's serialization; ADR 0044) — and a type list by `typeof`.
 * The declared schema (OpenAPI, MCP, request validation) keeps its `anyOf`.
 */
export function withNullableTypeLists(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullableTypeLists);
  if (!isNode(schema)) return schema;
  const nullable = nullableOf(schema);
  if (nullable) return { ...(withNullableTypeLists(nullable) as SchemaNode), type: [nullable.type, 'null'] };
  const copy: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = withNullableTypeLists(value);
  return copy;
}
