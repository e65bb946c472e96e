import { defineOperation } from '../../core/operation.ts';
import { createBoard, deleteBoard, getBoardSettings, updateBoard } from './admin.ts';
import { BoardSettings, BoardSettingsBody, DeletedBoard } from './admin-schemas.ts';
import { BoardParams, SprintParams } from './schemas.ts';
import { sprintReport } from './sprint-report.ts';
import { SprintReport } from './sprint-report-schema.ts';

// Creating, changing and deleting boards, their columns and swimlanes: not in the API (spec 1),
// done on the board's settings page. Operations for the web door only.

export const getBoardSettingsOperation = defineOperation({
  name: 'get_board_settings',
  doors: 'web',
  module: 'boards',
  access: 'read',
  summary: "Read a board's settings",
  description: "A board's name, kind, projects, columns and swimlanes, with the statuses no column shows. For those who may administer it.",
  params: BoardParams,
  response: BoardSettings,
  errors: ['not_found', 'forbidden'],
  handler: (ctx, input) => getBoardSettings(ctx, input.number),
});

export const createBoardOperation = defineOperation({
  name: 'create_board',
  doors: 'web',
  module: 'boards',
  access: 'write',
  summary: 'Create a board',
  description: 'A new board after the highest number, owned by its creator. Needs project:admin in every project it draws from.',
  body: BoardSettingsBody,
  response: BoardSettings,
  status: 201,
  errors: ['forbidden', 'invalid'],
  handler: (ctx, input) => createBoard(ctx, input),
});

export const updateBoardOperation = defineOperation({
  name: 'update_board',
  doors: 'web',
  module: 'boards',
  access: 'write',
  summary: 'Change a board',
  description:
    "Replaces a board's name, kind, projects, columns and swimlanes. Needs project:admin in every project it draws from, before and after.",
  params: BoardParams,
  body: BoardSettingsBody,
  response: BoardSettings,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => updateBoard(ctx, input.number, input),
});

export const deleteBoardOperation = defineOperation({
  name: 'delete_board',
  doors: 'web',
  module: 'boards',
  access: 'write',
  destructive: true,
  idempotent: false,
  summary: 'Delete a board',
  description:
    'Deletes a board with its columns and sprints; its tickets stay in their projects. Needs project:admin in every project it draws from.',
  params: BoardParams,
  response: DeletedBoard,
  errors: ['not_found', 'forbidden'],
  handler: (ctx, input) => deleteBoard(ctx, input.number),
});

// Sprint reports: not in the API either (spec 1).
export const getSprintReportOperation = defineOperation({
  name: 'get_sprint_report',
  doors: 'web',
  module: 'sprints',
  access: 'read',
  summary: "Read a sprint's report",
  description:
    'For an active or closed sprint: the burndown by day (tickets not done, their remaining estimate), the tickets completed and not, those added after the start and removed while it ran.',
  params: SprintParams,
  response: SprintReport,
  errors: ['not_found', 'no_such_sprint', 'wrong_state'],
  handler: (ctx, input) => sprintReport(ctx, input.number, input.sprint),
});

export const boardAdminOperations = [
  getBoardSettingsOperation,
  createBoardOperation,
  updateBoardOperation,
  deleteBoardOperation,
  getSprintReportOperation,
];
