import { Type } from 'typebox';
import { defineOperation } from '../../core/operation.ts';
import { shared, StringEnum } from '../../core/schema-kit.ts';
import { Person } from '../../core/shapes.ts';
import { markAllNotificationsReadOperation, markNotificationReadOperation, setEmailNotificationsOperation } from './notifications.ts';
import { createPersonalTokenOperation, revokeConnectionOperation, revokePersonalTokenOperation } from './tokens.ts';

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
  summary: 'Who you act as',
  description:
    'The member this connection acts for and the agent (token or application) with its access: `read` sees what the member sees and changes nothing; `write` may do what the member may. Call it first.',
  response: Me,
  handler: async (ctx) => ({
    user: { id: ctx.actor.memberId, name: ctx.actor.name },
    agent: { name: ctx.agent.name ?? 'browser', access: ctx.agent.access },
  }),
});

export const meOperations = [
  whoamiOperation,
  markNotificationReadOperation,
  markAllNotificationsReadOperation,
  setEmailNotificationsOperation,
  createPersonalTokenOperation,
  revokePersonalTokenOperation,
  revokeConnectionOperation,
];
