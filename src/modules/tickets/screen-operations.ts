import { Type, type Static } from 'typebox';
import { defineOperation } from '../../core/operation.ts';
import { KeyParams } from './schemas.ts';
import { transitionScreens } from './screens.ts';

const FieldShape = Type.Object({ key: Type.String(), name: Type.String(), type: Type.String(), choices: Type.Array(Type.String()) });

export const TransitionScreens = Type.Object({
  key: Type.String(),
  resolutions: Type.Array(Type.String()),
  /** The comment a move may carry: whether the member may add one, and whether as an internal note. */
  comment: Type.Object({ allowed: Type.Boolean(), internal: Type.Boolean() }),
  transitions: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      to_status: Type.String(),
      asks: Type.Object({ resolution: Type.Boolean(), assignee: Type.Boolean(), fields: Type.Array(FieldShape) }),
    }),
  ),
});
export type TransitionScreens = Static<typeof TransitionScreens>;

// A workflow's screens are the browser's to draw (spec 3.2 does not show a workflow's transitions):
// web-only, never a route or a tool.
export const listTransitionScreensOperation = defineOperation({
  name: 'list_transition_screens',
  doors: 'web',
  module: 'tickets',
  access: 'read',
  summary: 'The transitions you can take on a ticket, with their screens',
  description:
    "The transitions the member may take now, each with what its screen asks (a resolution, an assignee, custom fields), the project's resolutions, and whether the member may add a comment with the move and make it an internal note: what the ticket page offers.",
  params: KeyParams,
  response: TransitionScreens,
  errors: ['not_found'],
  handler: (ctx, input) => transitionScreens(ctx, input.key),
});
