import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { knowledgeOperations } from './operations.ts';
import { spacesSection } from './workspace-section.ts';

/** The knowledge base's door: spaces, page trees, versions, drafts, search, moves and the trash. */
export const knowledgeModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'knowledge',
  switch: 'knowledge',
  operations: knowledgeOperations,
  workspaceSections: [spacesSection],
};

// The trash page of the web app (space managers restore deleted pages).
export { restorePage, trash } from './write.ts';
