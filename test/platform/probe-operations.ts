import { Type } from 'typebox';
import { defineOperation, type Operation } from '../../src/core/operation.ts';
import { ApiError } from '../../src/core/errors.ts';
import { recordHistory } from '../../src/core/history.ts';
import { createRegistry } from '../../src/core/registry.ts';
import { StringEnum } from '../../src/core/schema-kit.ts';
import { MODULE_SWITCHES } from '../../src/core/settings.ts';
import { registry } from '../../src/modules/index.ts';

/** Something only the server knows; a 500 must never show it. */
export const INTERNAL_DETAIL = 'relation "tokens" failed at /srv/atrium/src/secret-file.ts:42';

const Echo = Type.Object({
  title: Type.String({ minLength: 1 }),
  count: Type.Optional(Type.Integer({ minimum: 0 })),
  kind: Type.Optional(StringEnum(['bug', 'task'])),
  tags: Type.Optional(Type.Array(Type.String())),
});

/** Answers the body it was given, as the schema read it: shows coercion, defaults and ignored fields. */
export const echoOperation = defineOperation({
  name: 'probe_echo',
  tool: null,
  method: 'POST',
  path: '/probe/echo',
  module: 'core',
  access: 'write',
  summary: 'test: echo',
  description: 'test: answers its body',
  body: Echo,
  response: Type.Object({ received: Type.Unknown() }),
  handler: async (_ctx, input) => ({ received: input }),
});

export const failingOperation = defineOperation({
  name: 'probe_failure',
  tool: null,
  method: 'GET',
  path: '/probe/failure',
  module: 'core',
  access: 'read',
  summary: 'test: fails',
  description: 'test: throws an unexpected error',
  response: Type.Object({}),
  handler: async () => {
    throw new Error(INTERNAL_DETAIL);
  },
});

export const PROBE_RECORD_ID = '00000000-0000-4000-8000-000000000001';

/** Records a change in the history, then fails if asked to: shows the history shares the transaction. */
export const recordOperation = defineOperation({
  name: 'probe_record',
  tool: null,
  method: 'POST',
  path: '/probe/record',
  module: 'core',
  access: 'write',
  summary: 'test: records a change',
  description: 'test: records a change and optionally fails afterwards',
  body: Type.Object({ value: Type.String(), fail: Type.Optional(StringEnum(['known', 'unexpected'])) }),
  response: Type.Object({ recorded: Type.Boolean() }),
  handler: async (ctx, input) => {
    await recordHistory(ctx, {
      entityType: 'probe',
      entityId: PROBE_RECORD_ID,
      kind: 'updated',
      changes: [{ field: 'value', from: null, to: input.value }],
    });
    if (input.fail === 'known') throw new ApiError('invalid', '/value: refused after recording');
    if (input.fail === 'unexpected') throw new Error('failed after recording');
    return { recorded: true };
  },
});

/** One read operation in each module that can be switched off. */
export const moduleOperations: Operation[] = MODULE_SWITCHES.map((module) =>
  defineOperation({
    name: `probe_${module}`,
    tool: null,
    method: 'GET',
    path: `/probe/${module}`,
    module,
    access: 'read',
    summary: `test: a ${module} read`,
    description: `test: a read in module ${module}`,
    response: Type.Object({ module: Type.String() }),
    handler: async () => ({ module }),
  }),
);

/** The service's own operations plus the probes above. */
export const probeRegistry = createRegistry([
  ...registry.operations,
  echoOperation,
  failingOperation,
  recordOperation,
  ...moduleOperations,
]);
