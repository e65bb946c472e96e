import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { helpdeskOperations } from './operations.ts';
import { helpdeskVisibility } from './policy.ts';
import { ticketRequestTypeHook } from './ticket-form.ts';
import { requestTypesSection } from './workspace-section.ts';

export type { RequestType, RequestTypeList } from './schemas.ts';

/** The helpdesk module's door: request types (portal forms), and the request type of a new ticket. */
export const helpdeskModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'helpdesk',
  switch: 'helpdesk',
  operations: helpdeskOperations,
  workspaceSections: [requestTypesSection],
  hooks: { ticketRequestType: ticketRequestTypeHook },
  visibility: helpdeskVisibility,
};
