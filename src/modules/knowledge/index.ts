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

// A space's trash as its page lists it (space managers; restore_page brings a page back).
export { trash } from './write.ts';

// What the pages read of the knowledge base, run through its operations (list_spaces, get_page_tree, get_page, search_pages).
export type { Page, PageSummary, PageTree, SearchResult as PageSearchResult, Space, SpaceList } from './schemas.ts';

// The member's page edits made through agents, for the pages' account of what agents did.
export { agentEdits, type AgentEdit } from './agent-edits.ts';
