import type { TSchema } from 'typebox';
import { errorCatalogue, type ErrorCode } from '../../core/errors.ts';
import type { Operation } from '../../core/operation.ts';
import type { Registry } from '../../core/registry.ts';
import { BODY_LIMIT, sizeText } from '../../core/request-size.ts';
import { sharedName } from '../../core/schema-kit.ts';
import { ErrorResponse } from '../../core/shapes.ts';
import { SCOPES } from '../well-known/protected-resource.ts';

type JsonObject = Record<string, unknown>;

const MODULE_TAGS: Record<Operation['module'], string> = {
  core: 'Me and projects',
  tickets: 'Tickets',
  boards: 'Boards',
  sprints: 'Sprints',
  helpdesk: 'Helpdesk forms',
  knowledge: 'Knowledge base',
  time: 'Time tracking',
  crm: 'CRM',
};

/** Every operation may answer these, whatever it does. */
const COMMON_ERRORS: ErrorCode[] = ['invalid_token', 'feature_disabled', 'forbidden', 'invalid', 'rate_limited', 'internal'];

/** A plain JSON copy of a schema in which every shared shape becomes a `$ref` to its component. */
function toOpenApiSchema(schema: unknown, components: Map<string, unknown>, root = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toOpenApiSchema(item, components));
  if (schema === null || typeof schema !== 'object') return schema;
  const name = sharedName(schema);
  if (name && !root) {
    if (!components.has(name)) {
      components.set(name, null);
      components.set(name, toOpenApiSchema(schema, components, true));
    }
    return { $ref: `#/components/schemas/${name}` };
  }
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = toOpenApiSchema(value, components);
  return copy;
}

function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function parameters(op: Operation, components: Map<string, unknown>) {
  const list: JsonObject[] = [];
  for (const [location, schema] of [
    ['path', op.params],
    ['query', op.query],
  ] as const) {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
      const description = (property as { description?: string }).description;
      list.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: toOpenApiSchema(property, components),
      });
    }
  }
  return list;
}

/** When an operation answers a code; an operation taking more than 1 MiB says how much. */
function when(op: Operation, code: ErrorCode): string {
  if (code !== 'payload_too_large' || op.requestLimit === BODY_LIMIT) return errorCatalogue[code].when;
  const limit = sizeText(op.requestLimit);
  return `the request body is larger than this operation takes (${limit}: room for its longest input, however encoded)`;
}

function errorResponses(op: Operation, components: Map<string, unknown>) {
  const byStatus = new Map<number, ErrorCode[]>();
  // Any operation taking a body may be sent one over the limit.
  const bodyErrors: ErrorCode[] = op.body ? ['payload_too_large'] : [];
  for (const code of [...COMMON_ERRORS, ...bodyErrors, ...op.errors]) {
    const { status } = errorCatalogue[code];
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  }
  const responses: JsonObject = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${when(op, code)}`).join('; '),
      ...(status === 401
        ? {
            headers: {
              'WWW-Authenticate': { schema: { type: 'string' }, description: 'starts OAuth: names the protected-resource metadata' },
            },
          }
        : {}),
      ...(status === 429 ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds to wait: 60' } } } : {}),
      content: { 'application/json': { schema: toOpenApiSchema(ErrorResponse, components) } },
    };
  }
  return responses;
}

function operationObject(op: Operation, components: Map<string, unknown>): JsonObject {
  const scopes = op.access === 'read' ? ['tickets:read'] : ['tickets:read', 'tickets:write'];
  const hasBody = op.body && Object.keys(op.body.properties).length > 0;
  return {
    operationId: op.tool ?? op.name,
    summary: op.summary,
    description: op.description,
    tags: [MODULE_TAGS[op.module]],
    ...(op.tool ? { 'x-mcp-tool': op.tool } : {}),
    security: [{ bearer: [] }, { oauth2: scopes }],
    parameters: parameters(op, components),
    ...(hasBody
      ? { requestBody: { required: true, content: { 'application/json': { schema: toOpenApiSchema(op.body, components) } } } }
      : {}),
    responses: {
      [String(op.status)]: {
        description: op.status === 201 ? 'created' : 'done; the record as it is now',
        content: { 'application/json': { schema: toOpenApiSchema(op.response, components) } },
      },
      ...errorResponses(op, components),
    },
  };
}

/** The OpenAPI 3.1 description of the REST API, built from the registry alone (spec 9). */
export function buildOpenApiDocument(registry: Registry, publicUrl: string): JsonObject {
  const components = new Map<string, unknown>();
  const paths: Record<string, JsonObject> = {};
  for (const op of registry.operations) {
    const path = openApiPath(op.path);
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = operationObject(op, components);
  }
  const usedModules = new Set(registry.operations.map((op) => op.module));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Atrium',
      version: '1.0.0',
      description:
        'Work management for teams whose AI agents work beside them. Every operation here is also an MCP tool at `/mcp` (its name is in `x-mcp-tool`), with the same arguments, answers and errors.',
    },
    servers: [{ url: `${publicUrl}/api/v1`, description: 'this workspace' }],
    tags: Object.entries(MODULE_TAGS)
      .filter(([module]) => usedModules.has(module as Operation['module']))
      .map(([, name]) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal token (`svc_pat_…`) or an OAuth access token (`svc_oat_…`) in `Authorization: Bearer …`',
        },
        oauth2: {
          type: 'oauth2',
          description: `Authorization code with PKCE (S256). Metadata: ${publicUrl}/.well-known/oauth-authorization-server`,
          flows: {
            authorizationCode: {
              authorizationUrl: `${publicUrl}/oauth/authorize`,
              tokenUrl: `${publicUrl}/oauth/token`,
              refreshUrl: `${publicUrl}/oauth/token`,
              scopes: {
                [SCOPES[0]]: 'see what the member can see',
                [SCOPES[1]]: 'change what the member may change',
              },
            },
          },
        },
      },
    },
    'x-oauth-endpoints': {
      authorization_server_metadata: `${publicUrl}/.well-known/oauth-authorization-server`,
      protected_resource_metadata: `${publicUrl}/.well-known/oauth-protected-resource`,
      registration: `${publicUrl}/oauth/register`,
      authorization: `${publicUrl}/oauth/authorize`,
      token: `${publicUrl}/oauth/token`,
      revocation: `${publicUrl}/oauth/revoke`,
    },
  };
}
