import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/**
 * Shapes the spec names (Person, Ticket, …) are registered here once; the OpenAPI document
 * publishes each as a component and refers to it wherever the same object appears.
 */
const sharedNames = new WeakMap<object, string>();
const sharedByName = new Map<string, TSchema>();

export function shared<T extends TSchema>(name: string, schema: T): T {
  if (sharedByName.has(name) && sharedByName.get(name) !== schema) {
    throw new Error(`shared schema ${name} declared twice`);
  }
  sharedNames.set(schema, name);
  sharedByName.set(name, schema);
  return schema;
}

export function sharedName(schema: object): string | undefined {
  return sharedNames.get(schema);
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** The largest value of a PostgreSQL integer column: inputs stored in one are held to it. */
export const INT32_MAX = 2_147_483_647;

/** `offset` of a paged list: what a client may ask for without the database refusing it. */
export const Offset = Type.Integer({ minimum: 0, maximum: INT32_MAX, default: 0 });

export const Uuid = Type.String({ format: 'uuid' });

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path or form value can name a row by id: anything else names nothing (404), never a database error. */
export const isUuid = (value: string): boolean => UUID_TEXT.test(value);
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 in UTC with microseconds' });
export const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

export type { Static };
