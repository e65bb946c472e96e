import { Type, type Static, type TObject, type TSchema } from 'typebox';
import type { Access } from '../policy/ability.ts';
import type { Context } from './context.ts';
import type { ErrorCode } from './errors.ts';
import { requestLimitOf } from './request-size.ts';
import type { SwitchableModule } from './settings.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ModuleName = 'core' | 'tickets' | SwitchableModule;
/**
 * Which doors serve an operation: `all` (REST, OpenAPI, MCP and the pages), or `web` — a function
 * the spec keeps out of the API (spec 1, "Not in the API"), run only from the pages.
 */
export type Doors = 'all' | 'web';

const NoInput = Type.Object({});
type NoInput = typeof NoInput;

/** Where an operation of the API doors is reached: its REST route and its MCP tool. */
interface ApiAddress {
  doors?: 'all';
  takenWhileReadOnly?: never;
  /** The MCP tool (spec 4.8 table); null where the spec lists none. */
  tool: string | null;
  method: HttpMethod;
  /** Fastify-style path under /api/v1, e.g. `/tickets/:key`. */
  path: string;
}

/** A web-only operation has no route and no tool: the page that runs it gives its input. */
interface WebAddress {
  doors: 'web';
  tool?: null;
  method?: never;
  path?: never;
  /**
   * A change a read-only workspace still takes (spec 5.6): one that reading needs or that only
   * takes access away — a member's personal tokens and connected applications. Never an API one.
   */
  takenWhileReadOnly?: boolean;
}

interface OperationFields<P extends TObject, Q extends TObject, B extends TObject, R extends TSchema> {
  /** operationId in OpenAPI: the MCP tool name, or a stable name where the spec has no tool. */
  name: string;
  module: ModuleName;
  /** `read` operations are offered to read tokens; every `write` one is refused them with 403. */
  access: Access;
  /**
   * A write whose handler writes in exactly one statement, atomic by itself: it runs outside a
   * transaction, so the statement commits as it ends and holds its row locks for no round trip.
   * A handler that must now and then write more opens one for those writes (core/transaction.ts).
   */
  oneStatement?: boolean;
  /**
   * The row every call with this input locks, named (e.g. `ticket ATR-7`): calls for one row
   * reach the database a few at a time (core/row-queue.ts). A name that misses (another spelling
   * of the key) only lets a call through unqueued.
   */
  locksRow?: (input: Static<P> & Static<Q> & Static<B>) => string;
  /**
   * A change whose handler first reads with the request's token check in its statement (a ticket
   * by key, tickets/load.ts) and has no effect outside the database before it writes: admitted on
   * the principal the process holds, with the check carried by that read, and every other
   * statement held until the check passes (core/execute.ts). One round trip fewer.
   */
  checkedByFirstRead?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  summary: string;
  /** Written for a model as much as a person: what it does, what to call first, how things are named. */
  description: string;
  params?: P;
  query?: Q;
  body?: B;
  /** A path parameter's name as a tool argument, where the spec's tool table names it otherwise. */
  toolArgs?: Partial<Record<keyof Static<P> & string, string>>;
  response: R;
  /**
   * The handler's presenter builds every object of the answer with exactly the schema's fields,
   * so the answer is written by JSON.stringify (core/serialization.ts); the tests hold each such
   * answer against the schema's serializer. For the large answers only: a board, a backlog, a page.
   */
  answerAsBuilt?: boolean;
  status?: 200 | 201;
  /** Error codes beyond the ones every operation may answer, for the OpenAPI document. */
  errors?: ErrorCode[];
  handler: (ctx: Context, input: Static<P> & Static<Q> & Static<B>) => Promise<Static<R>>;
}

export type OperationDefinition<P extends TObject, Q extends TObject, B extends TObject, R extends TSchema> = OperationFields<P, Q, B, R> &
  (ApiAddress | WebAddress);

/** An operation with its types erased: what the registry and the surfaces work with. */
export interface Operation {
  name: string;
  /** `web`: never a REST route, an OpenAPI path or an MCP tool (core/registry.ts keeps it apart). */
  doors: Doors;
  tool: string | null;
  /** A web-only operation's are POST and '' (no route). */
  method: HttpMethod;
  path: string;
  module: ModuleName;
  access: Access;
  /** Taken in a read-only workspace (web-only operations only; see WebAddress). */
  takenWhileReadOnly: boolean;
  oneStatement: boolean;
  locksRow: ((input: Record<string, unknown>) => string) | null;
  checkedByFirstRead: boolean;
  destructive: boolean;
  idempotent: boolean;
  summary: string;
  description: string;
  params: TObject;
  query: TObject;
  body: TObject | null;
  /** The largest request it takes, in bytes (core/request-size.ts): enough for any input its schemas accept. */
  requestLimit: number;
  toolArgs: Record<string, string>;
  response: TSchema;
  /** Its answers are written by JSON.stringify as built (core/serialization.ts); the schema's serializer otherwise. */
  answerAsBuilt: boolean;
  status: 200 | 201;
  errors: ErrorCode[];
  handler: (ctx: Context, input: Record<string, unknown>) => Promise<unknown>;
}

export function defineOperation<
  P extends TObject = NoInput,
  Q extends TObject = NoInput,
  B extends TObject = NoInput,
  R extends TSchema = TSchema,
>(definition: OperationDefinition<P, Q, B, R>): Operation {
  const web = definition.doors === 'web';
  const method = definition.method ?? 'POST';
  const hasBody = method !== 'GET';
  const params = definition.params ?? NoInput;
  const query = definition.query ?? NoInput;
  const body = hasBody ? (definition.body ?? NoInput) : null;
  return {
    name: definition.name,
    doors: web ? 'web' : 'all',
    tool: definition.tool ?? null,
    method,
    path: definition.path ?? '',
    module: definition.module,
    access: definition.access,
    takenWhileReadOnly: definition.takenWhileReadOnly ?? false,
    oneStatement: definition.oneStatement ?? false,
    locksRow: (definition.locksRow ?? null) as Operation['locksRow'],
    checkedByFirstRead: definition.checkedByFirstRead ?? false,
    destructive: definition.destructive ?? false,
    idempotent: definition.idempotent ?? (method === 'GET' || method === 'PUT'),
    summary: definition.summary,
    description: definition.description,
    params,
    query,
    body,
    // an MCP call carries path and query arguments in its body too
    requestLimit: requestLimitOf(body ? [params, query, body] : [params, query]),
    toolArgs: (definition.toolArgs ?? {}) as Record<string, string>,
    response: definition.response,
    answerAsBuilt: definition.answerAsBuilt ?? false,
    status: definition.status ?? 200,
    errors: definition.errors ?? [],
    handler: definition.handler as Operation['handler'],
  };
}
