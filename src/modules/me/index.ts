import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { meOperations } from './operations.ts';

/** GET /me: who a connection acts for. */
export const meModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'me',
  operations: meOperations,
};
