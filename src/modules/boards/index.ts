import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { boardOperations } from './operations.ts';
import { boardsSection } from './workspace-section.ts';

/** The boards module's door: boards, card moves, backlogs and sprints (spec 2.5, 3.1, 4.3). */
export const boardsModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'boards',
  switch: 'boards',
  operations: boardOperations,
  workspaceSections: [boardsSection],
};

export { getBoard, listBoards } from './board-view.ts';
// the pages' sprint links on a board (the same reads as GET /boards and GET /boards/{n}/sprints)
export { listSprints } from './sprints.ts';
export { Board, BoardDetail, SprintList } from './schemas.ts';
// the board's settings page and the board page's link to it
export { mayAdministerBoard } from './admin.ts';
export { BoardSettings } from './admin-schemas.ts';
export { swimlaneSource, type SwimlaneSource } from './swimlanes.ts';
export { SprintReport } from './sprint-report-schema.ts';
