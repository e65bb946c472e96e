import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { meOperations } from './operations.ts';

/**
 * GET /me: who a connection acts for; and, on the pages only, the member's own things: marking
 * notifications read, the email choice, personal tokens and connected applications.
 */
export const meModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'me',
  operations: meOperations,
};

// The answers of the member's web-only operations, for the pages that run them.
export type { EmailNotifications, UnreadCount } from './notifications.ts';
export type { NewToken, Revoked } from './tokens.ts';
