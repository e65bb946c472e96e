import { defineOperation } from '../../core/operation.ts';
import { Ticket, ticketRow } from '../tickets/index.ts';
import { boardAdminOperations } from './admin-operations.ts';
import { getBacklog, moveToSprint } from './backlog.ts';
import { getBoard, listBoards } from './board-view.ts';
import { moveCard } from './card-move.ts';
import {
  Backlog,
  BacklogMoveBody,
  BoardDetail,
  BoardList,
  BoardParams,
  BoardQuery,
  CardMoveBody,
  CompletedSprint,
  CompleteSprintBody,
  CreateSprintBody,
  DeletedSprint,
  Sprint,
  SprintList,
  SprintParams,
  StartSprintBody,
  UpdateSprintBody,
} from './schemas.ts';
import { completeSprint, createSprint, deleteSprint, listSprints, startSprint, updateSprint } from './sprints.ts';

// The spec's tools name the board `board`; the REST path says {number}.
const boardArg = { number: 'board' } as const;

export const listBoardsOperation = defineOperation({
  name: 'list_boards',
  tool: 'list_boards',
  method: 'GET',
  path: '/boards',
  module: 'boards',
  access: 'read',
  summary: 'List boards',
  description:
    'Boards drawing from a project you can see: number, name, kind, projects, owner. Boards are named by number; get_board shows columns and cards, get_backlog sprints and backlog.',
  response: BoardList,
  handler: async (ctx) => ({ boards: await listBoards(ctx) }),
});

export const getBoardOperation = defineOperation({
  name: 'get_board',
  tool: 'get_board',
  method: 'GET',
  path: '/boards/:number',
  module: 'boards',
  access: 'read',
  summary: 'Read a board',
  description:
    "A board's columns in order (statuses, work-in-progress limits) with their tickets in rank order (at most 500), the count in statuses no column shows (`unmapped`) and of done tickets retention hides (`hidden_done`). Move cards with move_card.",
  params: BoardParams,
  query: BoardQuery,
  toolArgs: boardArg,
  response: BoardDetail,
  answerAsBuilt: true,
  errors: ['not_found', 'no_such_sprint'],
  handler: (ctx, input) => getBoard(ctx, input.number, input.sprint),
});

export const moveCardOperation = defineOperation({
  name: 'move_card',
  tool: 'move_card',
  method: 'POST',
  path: '/boards/:number/moves',
  module: 'boards',
  access: 'write',
  locksRow: ticketRow,
  summary: 'Move a card',
  description:
    'Moves ticket `key` to `column`. Into another column it takes the first transition you may take to one of its statuses (ticket:transition); give `resolution`, `comment`, `comment_internal`, `assignee` or `fields` when it asks; if something is missing nothing changes and the error says what. Within its column it is reordered (ticket:edit); `before`/`after` place it, else at the end.',
  params: BoardParams,
  body: CardMoveBody,
  toolArgs: boardArg,
  response: Ticket,
  errors: ['not_found', 'forbidden', 'invalid', 'no_transition', 'no_such_column', 'transition_not_available', 'not_assignable'],
  handler: (ctx, input) => moveCard(ctx, input.number, input),
});

export const getBacklogOperation = defineOperation({
  name: 'get_backlog',
  tool: 'get_backlog',
  method: 'GET',
  path: '/boards/:number/backlog',
  module: 'boards',
  access: 'read',
  summary: "Read a board's backlog",
  description:
    "Open sprints (the active one first, then future ones) with their tickets, then the board's open tickets in no open sprint, in rank order (at most 500 each). Move them with move_to_sprint.",
  params: BoardParams,
  toolArgs: boardArg,
  response: Backlog,
  answerAsBuilt: true,
  errors: ['not_found'],
  handler: (ctx, input) => getBacklog(ctx, input.number),
});

export const moveToSprintOperation = defineOperation({
  name: 'move_to_sprint',
  tool: 'move_to_sprint',
  method: 'POST',
  path: '/boards/:number/backlog/moves',
  module: 'sprints',
  access: 'write',
  locksRow: ticketRow,
  summary: 'Move a ticket to a sprint or the backlog',
  description:
    'Moves ticket `key` into an open sprint of the board or to `backlog`, leaving the open sprint it was in; `before`/`after` place it, else at the end. Needs ticket:edit.',
  params: BoardParams,
  body: BacklogMoveBody,
  toolArgs: boardArg,
  response: Ticket,
  errors: ['not_found', 'forbidden', 'invalid', 'no_such_sprint'],
  handler: (ctx, input) => moveToSprint(ctx, input.number, input),
});

export const listSprintsOperation = defineOperation({
  name: 'list_sprints',
  tool: 'list_sprints',
  method: 'GET',
  path: '/boards/:number/sprints',
  module: 'sprints',
  access: 'read',
  summary: "List a board's sprints",
  description:
    'Every sprint of a board in order (future, active, closed) with dates and goal. `can_manage`: whether you may create, change, start, complete and delete them (administrators, or project:admin in every project of the board, with a write token).',
  params: BoardParams,
  toolArgs: boardArg,
  response: SprintList,
  errors: ['not_found'],
  handler: (ctx, input) => listSprints(ctx, input.number),
});

export const createSprintOperation = defineOperation({
  name: 'create_sprint',
  tool: 'create_sprint',
  method: 'POST',
  path: '/boards/:number/sprints',
  module: 'sprints',
  access: 'write',
  summary: 'Create a sprint',
  description:
    "Creates a future sprint after a scrum board's other sprints; names are unique on a board. Needs sprint management (`can_manage` in list_sprints).",
  params: BoardParams,
  body: CreateSprintBody,
  toolArgs: boardArg,
  response: Sprint,
  status: 201,
  errors: ['not_found', 'forbidden', 'invalid'],
  handler: (ctx, input) => createSprint(ctx, input.number, input),
});

export const updateSprintOperation = defineOperation({
  name: 'update_sprint',
  tool: 'update_sprint',
  method: 'PATCH',
  path: '/boards/:number/sprints/:sprint',
  module: 'sprints',
  access: 'write',
  summary: 'Change a sprint',
  description:
    'Changes any of a sprint’s name, goal, start_date and end_date (send only what changes). The sprint is named by name or id. Needs sprint management.',
  params: SprintParams,
  body: UpdateSprintBody,
  toolArgs: boardArg,
  response: Sprint,
  errors: ['not_found', 'forbidden', 'invalid', 'no_such_sprint'],
  handler: (ctx, input) => updateSprint(ctx, input.number, input.sprint, input),
});

export const startSprintOperation = defineOperation({
  name: 'start_sprint',
  tool: 'start_sprint',
  method: 'POST',
  path: '/boards/:number/sprints/:sprint/start',
  module: 'sprints',
  access: 'write',
  summary: 'Start a sprint',
  description:
    'Starts a future sprint; it needs an end date. Fails with sprint_active while another sprint of the board is active, wrong_state when it is not future. Needs sprint management.',
  params: SprintParams,
  body: StartSprintBody,
  toolArgs: boardArg,
  response: Sprint,
  errors: ['not_found', 'forbidden', 'invalid', 'no_such_sprint', 'sprint_active', 'wrong_state'],
  handler: (ctx, input) => startSprint(ctx, input.number, input.sprint, input),
});

export const completeSprintOperation = defineOperation({
  name: 'complete_sprint',
  tool: 'complete_sprint',
  method: 'POST',
  path: '/boards/:number/sprints/:sprint/complete',
  module: 'sprints',
  access: 'write',
  summary: 'Complete the active sprint',
  description:
    'Done tickets stay in it; unfinished ones go to `move_open_to` and are listed in `moved`. wrong_state when the sprint is not active. Needs sprint management.',
  params: SprintParams,
  body: CompleteSprintBody,
  toolArgs: boardArg,
  response: CompletedSprint,
  errors: ['not_found', 'forbidden', 'invalid', 'no_such_sprint', 'wrong_state'],
  handler: (ctx, input) => completeSprint(ctx, input.number, input.sprint, input),
});

export const deleteSprintOperation = defineOperation({
  name: 'delete_sprint',
  tool: 'delete_sprint',
  method: 'DELETE',
  path: '/boards/:number/sprints/:sprint',
  module: 'sprints',
  access: 'write',
  destructive: true,
  idempotent: false,
  summary: 'Delete a future sprint',
  description:
    'Deletes a future sprint; its tickets return to the backlog. An active or closed sprint cannot be deleted (wrong_state). Needs sprint management.',
  params: SprintParams,
  toolArgs: boardArg,
  response: DeletedSprint,
  errors: ['not_found', 'forbidden', 'no_such_sprint', 'wrong_state'],
  handler: (ctx, input) => deleteSprint(ctx, input.number, input.sprint),
});

export const boardOperations = [
  listBoardsOperation,
  getBoardOperation,
  moveCardOperation,
  getBacklogOperation,
  moveToSprintOperation,
  listSprintsOperation,
  createSprintOperation,
  updateSprintOperation,
  startSprintOperation,
  completeSprintOperation,
  deleteSprintOperation,
  ...boardAdminOperations,
];
