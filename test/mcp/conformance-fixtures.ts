import { Type } from 'typebox';
import { ApiError } from '../../src/core/errors.ts';
import { defineOperation } from '../../src/core/operation.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { registry } from '../../src/modules/index.ts';

/**
 * The conformance suite calls tools by fixed names from its reference server. These two are
 * declared like any operation (no MCP code of their own) and served only by .ci/mcp-conformance.sh,
 * never by the product.
 */
export const conformanceOperations = [
  defineOperation({
    name: 'test_simple_text',
    tool: 'test_simple_text',
    method: 'GET',
    path: '/conformance/simple-text',
    module: 'core',
    access: 'read',
    summary: 'Conformance fixture: a simple answer',
    description: 'Conformance-suite fixture: answers a fixed sentence as data.',
    response: Type.Object({ text: Type.String() }),
    handler: async () => ({ text: 'This is a simple text response for testing.' }),
  }),
  defineOperation({
    name: 'test_error_handling',
    tool: 'test_error_handling',
    method: 'GET',
    path: '/conformance/error',
    module: 'core',
    access: 'read',
    summary: 'Conformance fixture: a failure the model can act on',
    description: 'Conformance-suite fixture: always fails with a sentence, as an error result.',
    response: Type.Object({}),
    handler: async () => {
      throw new ApiError('invalid', '/: this tool always fails, to test error handling');
    },
  }),
];

export const conformanceRegistry = createRegistry([...registry.operations, ...conformanceOperations]);
