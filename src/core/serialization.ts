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
    serialize = (data) => (built ??= fastJsonStringify(schema as fastJsonStringify.AnySchema))(data) as string;
    compiled.set(schema, serialize);
  }
  return serialize;
}
