import { Type } from 'typebox';
import { defineOperation } from '../../core/operation.ts';
import { shared, StringEnum } from '../../core/schema-kit.ts';
import { Person } from '../../core/shapes.ts';

export const Me = shared(
  'Me',
  Type.Object({
    user: Person,
    agent: Type.Object({
      name: Type.String({ description: "the token's name, or the connected application's name" }),
      access: StringEnum(['read', 'write']),
    }),
  }),
);

export const whoamiOperation = defineOperation({
  name: 'whoami',
  tool: 'whoami',
  method: 'GET',
  path: '/me',
  module: 'core',
  access: 'read',
  summary: 'Who you are acting as, and with what access',
  description:
    'Returns the member this connection acts for and the agent (token or application) with its access: `read` sees what the member can see and changes nothing; `write` may do whatever the member may. Call it first to learn whose permissions you hold.',
  response: Me,
  handler: async (ctx) => ({
    user: { id: ctx.actor.memberId, name: ctx.actor.name },
    agent: { name: ctx.agent.name, access: ctx.agent.access },
  }),
});

export const meOperations = [whoamiOperation];
