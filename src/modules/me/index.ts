import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { meOperations } from './operations.ts';

/** GET /me: who a connection acts for; and, on the pages only, marking the member's notifications read. */
export const meModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'me',
  operations: meOperations,
};

// The answer of the notifications page's Mark read (web-only operations).
export type { UnreadCount } from './notifications.ts';
