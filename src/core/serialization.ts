import fastJsonStringify from 'fast-json-stringify';

/** A response written as JSON text, only with what its schema declares. */
export type Serializer = (data: unknown) => string;

const compiled = new WeakMap<object, Serializer>();

/**
 * One serializer per response schema, shared by the REST routes and the MCP tools so both doors
 * write byte-for-byte the same data. It is compiled at its first answer, not at start-up: most
 * processes answer a few of the operations, and every compiled schema holds generated code
 * (about 20 MiB for all of them, issue 15).
 */
export function serializerFor(schema: object): Serializer {
  let serialize = compiled.get(schema);
  if (!serialize) {
    let built: Serializer | null = null;
    serialize = (data) => (built ??= fastJsonStringify(withNullableTypeLists(schema) as fastJsonStringify.AnySchema))(data) as string;
    compiled.set(schema, serialize);
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
 * twice (a third of a 500-card board's serialization, issue 15) — and a type list by `typeof`.
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
