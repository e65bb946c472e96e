import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../src/core/errors.ts';
import { registry } from '../../src/modules/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const SPEC_COVERAGE = new URL('../fixtures/shared/tools/spec-coverage.mjs', import.meta.url).pathname;
const run = promisify(execFile);

type Json = Record<string, any>;

let service: TestService;
let document: Json;
/** The document with every `$ref` replaced by what it points at. */
let resolved: Json;

beforeAll(async () => {
  service = await startTestService({ listen: true, publicUrl: 'https://atrium.example.com' });
  const response = await fetch(`${service.url}/api/v1/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  document = (await response.json()) as Json;
  resolved = (await SwaggerParser.dereference(structuredClone(document) as never)) as Json;
});

afterAll(async () => {
  await service?.close();
});

/** A schema as plain JSON, the way it travels (TypeBox's symbol keys dropped). */
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema));
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operationOf = (method: string, path: string, doc = document): Json => doc.paths[openApiPath(path)]?.[method.toLowerCase()];

describe('openapi: served at /api/v1/openapi.json without a token (spec 4.9)', () => {
  it('answers without any Authorization header', async () => {
    const reply = await service.request('GET', '/api/v1/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe('3.1.0');
  });
});

describe('openapi: a valid OpenAPI 3.1 document', () => {
  it('passes @apidevtools/swagger-parser validation', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('names the workspace as its server: PUBLIC_URL/api/v1', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: 'https://atrium.example.com/api/v1' })]);
  });
});

describe('openapi: security schemes are bearer and OAuth 2 authorization code with both scopes', () => {
  it('declares an HTTP bearer scheme', () => {
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it("declares the authorization code flow on the workspace's own endpoints", () => {
    const flow = document.components.securitySchemes.oauth2;
    expect(flow.type).toBe('oauth2');
    expect(flow.flows.authorizationCode).toMatchObject({
      authorizationUrl: 'https://atrium.example.com/oauth/authorize',
      tokenUrl: 'https://atrium.example.com/oauth/token',
      refreshUrl: 'https://atrium.example.com/oauth/token',
    });
    expect(Object.keys(flow.flows.authorizationCode.scopes).sort()).toEqual(['tickets:read', 'tickets:write']);
  });

  it('asks read operations for tickets:read and changes for both scopes', () => {
    for (const op of registry.operations) {
      const security = operationOf(op.method, op.path).security;
      const scopes = op.access === 'read' ? ['tickets:read'] : ['tickets:read', 'tickets:write'];
      expect(security, op.name).toEqual([{ bearer: [] }, { oauth2: scopes }]);
    }
  });
});

describe('openapi: every operation of the registry, with its name, tag, parameters, body and answers', () => {
  it('has exactly the registry operations, no more', () => {
    const offered = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item as Json).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const declared = registry.operations.map((op) => `${op.method} ${openApiPath(op.path)}`);
    expect(offered.sort()).toEqual(declared.sort());
  });

  it('uses the MCP tool name (or the stable name) as operationId, each once', () => {
    const ids = registry.operations.map((op) => operationOf(op.method, op.path).operationId);
    expect(ids).toEqual(registry.operations.map((op) => op.tool ?? op.name));
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of registry.operations) {
      if (op.tool) expect(operationOf(op.method, op.path)['x-mcp-tool'], op.name).toBe(op.tool);
    }
  });

  it('tags each operation with its module, and declares every tag used', () => {
    const declared = new Set((document.tags as Json[]).map((t) => t.name));
    const byModule = new Map<string, string>();
    for (const op of registry.operations) {
      const tags = operationOf(op.method, op.path).tags as string[];
      expect(tags, op.name).toHaveLength(1);
      expect(declared.has(tags[0]!), op.name).toBe(true);
      const known = byModule.get(op.module);
      if (known) expect(tags[0], `${op.name} shares the tag of module ${op.module}`).toBe(known);
      byModule.set(op.module, tags[0]!);
    }
    expect(new Set(byModule.values()).size).toBe(byModule.size);
  });

  it('describes every path and query parameter with the schema that validates it', () => {
    for (const op of registry.operations) {
      const parameters = (operationOf(op.method, op.path, resolved).parameters ?? []) as Json[];
      const expected = [
        ...Object.entries(op.params.properties).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
        ...Object.entries(op.query.properties).map(([name, schema]) => ({
          name,
          in: 'query',
          required: ((op.query.required as string[] | undefined) ?? []).includes(name),
          schema,
        })),
      ];
      expect(parameters.map((p) => p.name).sort(), op.name).toEqual(expected.map((p) => p.name).sort());
      for (const want of expected) {
        const got = parameters.find((p) => p.name === want.name && p.in === want.in);
        expect(got, `${op.name} ${want.in} ${want.name}`).toBeDefined();
        expect(got!.required, `${op.name} ${want.name} required`).toBe(want.required);
        expect(got!.schema, `${op.name} ${want.name} schema`).toEqual(plain(want.schema));
      }
    }
  });

  it('describes each request body with the schema that validates it', () => {
    for (const op of registry.operations) {
      const body = operationOf(op.method, op.path, resolved).requestBody;
      if (!op.body || Object.keys(op.body.properties).length === 0) {
        expect(body, op.name).toBeUndefined();
        continue;
      }
      expect(body.required, op.name).toBe(true);
      expect(Object.keys(body.content), op.name).toEqual(['application/json']);
      expect(body.content['application/json'].schema, op.name).toEqual(plain(op.body));
    }
  });

  it('gives the exact success answer: its status and the schema that serializes it', () => {
    for (const op of registry.operations) {
      const responses = operationOf(op.method, op.path, resolved).responses as Json;
      const success = Object.keys(responses).filter((status) => status.startsWith('2'));
      expect(success, op.name).toEqual([String(op.status)]);
      expect(responses[String(op.status)].content['application/json'].schema, op.name).toEqual(plain(op.response));
    }
  });

  it('lists the error answers every operation may give, and its own, in the error envelope', () => {
    for (const op of registry.operations) {
      const responses = operationOf(op.method, op.path).responses as Json;
      const statuses = new Set([401, 403, 422, 429, 500, ...op.errors.map((code) => errorCatalogue[code].status)]);
      if (op.method !== 'GET') statuses.add(413);
      for (const status of statuses) {
        const answer = responses[String(status)];
        expect(answer, `${op.name} ${status}`).toBeDefined();
        expect(answer.content['application/json'].schema, `${op.name} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
      for (const code of op.errors) expect(responses[String(errorCatalogue[code].status)].description, op.name).toContain(`\`${code}\``);
      expect(responses['401'].headers['WWW-Authenticate'], op.name).toBeDefined();
      expect(responses['429'].headers['Retry-After'], op.name).toBeDefined();
    }
  });
});

describe('openapi: shared shapes are components', () => {
  it('publishes the spec shapes once and refers to them', () => {
    const names = Object.keys(document.components.schemas);
    for (const shape of ['Error', 'Person', 'Me', 'Project', 'ProjectList', 'ProjectDetail']) expect(names).toContain(shape);
    expect(document.components.schemas.Error).toEqual({
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: expect.objectContaining({ type: 'string' }),
            message: expect.objectContaining({ type: 'string' }),
          },
        },
      },
    });
    expect(operationOf('GET', '/me').responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Me' });
    expect(document.components.schemas.ProjectDetail.properties.assignable_users.items).toEqual({ $ref: '#/components/schemas/Person' });
  });

  it('has no component that nothing refers to', () => {
    const text = JSON.stringify(document.paths) + JSON.stringify(document.components.schemas);
    for (const name of Object.keys(document.components.schemas)) expect(text, name).toContain(`"#/components/schemas/${name}"`);
  });
});

describe('openapi: the snapshot in test/contract/openapi.json shows every change to the public surface', () => {
  it('matches the snapshot (regenerate with `npx vitest run test/contract -u`)', async () => {
    await expect(`${JSON.stringify(document, null, 2)}\n`).toMatchFileSnapshot('./openapi.json');
  });
});

describe('openapi: every operation of every landed module is offered (spec-coverage.mjs)', () => {
  it('reports rest:yes for every spec operation of a module the registry has', async () => {
    const { stdout } = await run(process.execPath, [SPEC_COVERAGE, service.url]);
    const landed = new Set<string>(registry.operations.map((op) => op.module));
    const rows = stdout.split('\n').filter((line) => /rest:(yes|no)/.test(line));
    expect(rows.length).toBeGreaterThan(0);
    const missing = rows.filter((line) => landed.has(line.split(/\s+/)[0]!) && line.includes('rest:no'));
    expect(missing).toEqual([]);
  });

  it('reports each of their tools offered at /mcp with the annotations the spec gives', async () => {
    const { stdout } = await run(process.execPath, [SPEC_COVERAGE, service.url, await service.token('ada@example.com', 'write')]);
    const landed = new Set<string>(registry.operations.map((op) => op.module));
    const rows = stdout.split('\n').filter((line) => /tool:/.test(line) && landed.has(line.split(/\s+/)[0]!));
    expect(rows.length).toBeGreaterThan(0);
    const wrong = rows.filter((line) => !line.includes('(no tool)') && !/tool:yes annotations:ok/.test(line));
    expect(wrong).toEqual([]);
  });
});
