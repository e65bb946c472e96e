import { Type } from 'typebox';
import { defineOperation } from '../../src/core/operation.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { registry } from '../../src/modules/index.ts';

/**
 * Test-only operations beside the real ones, to exercise what no landed module shows yet: a
 * switchable module (the CRM), a write tool, path + query + body split back apart, a renamed
 * path parameter, a handler that answers more than its schema, and one that fails unexpectedly.
 */
const Echo = Type.Object({ project: Type.String(), limit: Type.Integer(), text: Type.String(), flag: Type.Boolean() });

export const fixtureOperations = [
  defineOperation({
    name: 'fixture_crm_read',
    tool: 'fixture_crm_read',
    method: 'GET',
    path: '/fixture/crm',
    module: 'crm',
    access: 'read',
    summary: 'Read the fixture CRM',
    description: 'A test-only CRM read.',
    response: Type.Object({ seen: Type.Boolean() }),
    handler: async () => ({ seen: true }),
  }),
  defineOperation({
    name: 'fixture_crm_write',
    tool: 'fixture_crm_write',
    method: 'POST',
    path: '/fixture/crm',
    module: 'crm',
    access: 'write',
    summary: 'Write the fixture CRM',
    description: 'A test-only CRM write.',
    body: Type.Object({ text: Type.String() }),
    response: Type.Object({ text: Type.String() }),
    status: 201,
    handler: async (_ctx, input) => ({ text: input.text }),
  }),
  defineOperation({
    name: 'fixture_echo',
    tool: 'fixture_echo',
    method: 'POST',
    path: '/fixture/echo/:key',
    module: 'core',
    access: 'write',
    idempotent: true,
    summary: 'Echo the three parts of the input',
    description: 'A test-only write whose path, query and body come back as one object.',
    params: Type.Object({ key: Type.String({ minLength: 2, maxLength: 5 }) }),
    toolArgs: { key: 'project' },
    query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }),
    body: Type.Object({ text: Type.String(), flag: Type.Optional(Type.Boolean()) }),
    response: Echo,
    // -1 would show a default the validator failed to apply. The handler answers more than its
    // schema: both doors drop the extra field alike.
    handler: async (_ctx, input) => ({
      project: input.key,
      limit: input.limit ?? -1,
      text: input.text,
      flag: input.flag ?? false,
      secret: 'not in the schema',
    }),
  }),
  defineOperation({
    name: 'fixture_boom',
    tool: 'fixture_boom',
    method: 'GET',
    path: '/fixture/boom',
    module: 'core',
    access: 'read',
    summary: 'Fail unexpectedly',
    description: 'A test-only read that throws an unexpected error.',
    response: Type.Object({}),
    handler: async () => {
      throw new Error('relation "secret_table" does not exist');
    },
  }),
  defineOperation({
    name: 'fixture_destroy',
    tool: 'fixture_destroy',
    method: 'DELETE',
    path: '/fixture/crm/:id',
    module: 'crm',
    access: 'write',
    destructive: true,
    summary: 'Destroy a fixture record',
    description: 'A test-only destructive write.',
    params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
    response: Type.Object({ deleted: Type.Boolean() }),
    handler: async () => ({ deleted: true }),
  }),
];

export const fixtureRegistry = createRegistry([...registry.operations, ...fixtureOperations]);
