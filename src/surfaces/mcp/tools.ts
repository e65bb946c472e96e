import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../core/execute.ts';
import { moduleSwitchedOff } from '../../core/execute.ts';
import type { Operation } from '../../core/operation.ts';
import type { Registry } from '../../core/registry.ts';
import { featuresOf, type ProtocolVersion } from './protocol.ts';

export type InputPart = 'params' | 'query' | 'body';

/** Where one tool argument goes in the REST operation: which part, under which name. */
export interface ArgumentTarget {
  part: InputPart;
  name: string;
}

type JsonObject = { [key: string]: unknown };

/** One operation as a tool: computed once at start-up, filtered per request. */
export interface ToolEntry {
  name: string;
  op: Operation;
  arguments: ReadonlyMap<string, ArgumentTarget>;
  /** Whether the REST answer is an object, so it can be `structuredContent` under `outputSchema`. */
  structured: boolean;
  /** The tool as `tools/list` shows it at each generation of the protocol. */
  definitions: { current: Tool; v20250326: Tool; v20241105: Tool };
}

export interface Toolset {
  entries: readonly ToolEntry[];
  byName: ReadonlyMap<string, ToolEntry>;
}

// Plain JSON: TypeBox schemas carry symbol keys; what goes on the wire (and in the snapshot) is data.
const plain = (schema: unknown): JsonObject => JSON.parse(JSON.stringify(schema)) as JsonObject;

const isNullType = (schema: unknown) => (schema as JsonObject).type === 'null' && Object.keys(schema as JsonObject).length === 1;

/**
 * `anyOf: [{type: T, …}, {type: 'null'}]` (TypeBox's Nullable) said as `{type: [T, 'null'], …}`:
 * the same values accepted, 18 bytes less each, about 1 KB of every tools/list (ADR 0019). Kept as
 * it is where the other branch has its own `anyOf`, `enum` or `const` (null would need adding there).
 */
function compactNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactNullable);
  if (!schema || typeof schema !== 'object') return schema;
  const compacted = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, compactNullable(value)])) as JsonObject;
  const branches = compacted.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return compacted;
  const nullAt = branches.findIndex(isNullType);
  const other = branches[1 - nullAt] as JsonObject | undefined;
  if (nullAt < 0 || !other || typeof other.type !== 'string' || 'anyOf' in other || 'enum' in other || 'const' in other) return compacted;
  const { anyOf: _nullable, ...outer } = compacted;
  return { ...other, ...outer, type: [other.type, 'null'] };
}

function objectParts(schema: JsonObject): { properties: JsonObject; required: string[] } {
  return {
    properties: (schema.properties as JsonObject | undefined) ?? {},
    required: (schema.required as string[] | undefined) ?? [],
  };
}

/** Path, query and body parameters merged into one argument object (spec 4.8), path ones renamed by `toolArgs`. */
function mergeArguments(op: Operation): { inputSchema: JsonObject; targets: Map<string, ArgumentTarget> } {
  const properties: JsonObject = {};
  const required: string[] = [];
  const targets = new Map<string, ArgumentTarget>();
  const parts: [InputPart, JsonObject][] = [
    ['params', plain(op.params)],
    ['query', plain(op.query)],
  ];
  if (op.body) parts.push(['body', plain(op.body)]);
  for (const [part, schema] of parts) {
    const own = objectParts(schema);
    for (const [name, property] of Object.entries(own.properties)) {
      const argument = part === 'params' ? (op.toolArgs[name] ?? name) : name;
      if (targets.has(argument)) {
        throw new Error(`tool ${op.tool}: argument ${argument} comes from two parts of ${op.method} ${op.path}; rename one with toolArgs`);
      }
      targets.set(argument, { part, name });
      properties[argument] = property;
      if (own.required.includes(name)) required.push(argument);
    }
  }
  const inputSchema: JsonObject = { type: 'object', properties: compactNullable(properties) };
  if (required.length) inputSchema.required = required;
  inputSchema.additionalProperties = false;
  return { inputSchema, targets };
}

function toolEntry(op: Operation & { tool: string }): ToolEntry {
  const { inputSchema, targets } = mergeArguments(op);
  const structured = plain(op.response).type === 'object';
  const annotations = {
    readOnlyHint: op.access === 'read',
    destructiveHint: op.destructive,
    idempotentHint: op.idempotent,
    openWorldHint: false,
  };
  const v20241105 = { name: op.tool, description: op.description, inputSchema } as Tool;
  const v20250326 = { ...v20241105, annotations } as Tool;
  const current = {
    name: op.tool,
    title: op.summary,
    description: op.description,
    inputSchema,
    // The answer's full schema was 64 % of tools/list (79 of 124 KB with 37 tools): context a model
    // pays for on every connection, for shapes the tool descriptions and the OpenAPI document
    // already give. `{type: object}` still tells clients that structuredContent comes (ADR 0019).
    ...(structured ? { outputSchema: { type: 'object' } } : {}),
    annotations,
  } as Tool;
  return { name: op.tool, op, arguments: targets, structured, definitions: { current, v20250326, v20241105 } };
}

/** Every operation with a tool name becomes a tool; nothing is written per tool. */
export function buildToolset(registry: Registry): Toolset {
  const entries = registry.operations.filter((op): op is Operation & { tool: string } => op.tool !== null).map(toolEntry);
  return { entries, byName: new Map(entries.map((entry) => [entry.name, entry])) };
}

/** Spec 4.8: a read token is offered only read tools; a switched-off module's tools are not listed. */
export function isOffered(entry: ToolEntry, principal: Principal): boolean {
  if (moduleSwitchedOff(entry.op, principal.settings)) return false;
  return entry.op.access === 'read' || principal.agent.access === 'write';
}

export function offeredTools(toolset: Toolset, principal: Principal): ToolEntry[] {
  return toolset.entries.filter((entry) => isOffered(entry, principal));
}

export function definitionAt(entry: ToolEntry, version: ProtocolVersion): Tool {
  const features = featuresOf(version);
  if (features.structured) return entry.definitions.current;
  return features.annotations ? entry.definitions.v20250326 : entry.definitions.v20241105;
}
