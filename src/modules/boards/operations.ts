import { defineOperation } from '../../core/operation.ts';
import { Ticket } from '../tickets/index.ts';
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
  summary: 'List the boards you can see',
  description:
    'Lists the boards drawing from at least one project you can see: number, name, kind (scrum or kanban), projects and owner. Boards are named by number; call get_board to see a board’s columns and cards, get_backlog for its sprints and backlog.',
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
  summary: 'Read a board as its page shows it: columns in order with their tickets in rank order',
  description:
    'Reads one board: its columns in order (name, statuses, work-in-progress limits) with the tickets in each in rank order (at most 500 in all), how many tickets are in a status no column shows (`unmapped`) and how many done tickets the retention leaves off (`hidden_done`). On a scrum board `sprint` picks a sprint by name or id, or `none` for every ticket; left out, the active sprint is shown (every ticket when none is active). Move cards with move_card.',
  params: BoardParams,
  query: BoardQuery,
  toolArgs: boardArg,
  response: BoardDetail,
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
  summary: 'Move a card to a column of the board (taking a workflow transition) or reorder it within its column',
  description:
    'Moves ticket `key` to `column` (its name or index from 0). Into another column, the first transition you may take to one of the column’s statuses is taken (needs ticket:transition); give `resolution`, `comment`, `comment_internal`, `assignee` or `fields` when that transition asks for them — if it asks for something not given, nothing changes and the error says what. Within its column the card is only reordered (needs ticket:edit). `before`/`after` name a ticket of that column to place it next to; left out, it goes to the end of the column.',
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
  summary: 'Read a board’s backlog: its open sprints with their tickets, then the open tickets in no sprint',
  description:
    'Reads the backlog of a board: open sprints (the active one first, then future ones in order) with their tickets, then the open tickets of the board’s projects that are in no open sprint, in rank order (at most 500 each). Move tickets between sprints and the backlog with move_to_sprint.',
  params: BoardParams,
  toolArgs: boardArg,
  response: Backlog,
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
  summary: 'Put a ticket in an open sprint of the board or back in the backlog, and place it there',
  description:
    'Moves ticket `key` into an open sprint of the board (by name or id) or to the `backlog`; a ticket is in at most one open sprint of a board, so it leaves the one it was in. `before`/`after` name a ticket of that sprint or of the backlog to place it next to; left out, it goes to the end. Needs ticket:edit.',
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
  summary: 'List a board’s sprints, closed ones included, and whether you may manage them',
  description:
    'Lists every sprint of a board in order (future, active and closed) with its dates and goal. `can_manage` says whether you may create, change, start, complete and delete sprints here (installation administrators, or project:admin in every project the board draws from, with a write token).',
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
  summary: 'Create a future sprint at the end of a scrum board’s sprints',
  description:
    'Creates a future sprint on a scrum board, after its other sprints. Dates are `YYYY-MM-DD` (midnight UTC) or ISO 8601 times. Sprint names are unique on a board. Needs sprint management (see list_sprints `can_manage`).',
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
  summary: 'Change a sprint’s name, goal or dates',
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
  summary: 'Start a future sprint (a board runs one active sprint at a time)',
  description:
    'Starts a future sprint. It needs an end date (`end_date`, unless the sprint already has one); `start_date` defaults to now. Fails with sprint_active while another sprint of the board is active, and wrong_state for a sprint that is not future. Needs sprint management.',
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
  summary: 'Complete the active sprint, moving its unfinished tickets on',
  description:
    'Completes the active sprint: done tickets stay in it; unfinished ones go to `move_open_to` (an open sprint by name or id, or `backlog`, the default) and are listed in `moved`. Fails with wrong_state for a sprint that is not active. Needs sprint management.',
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
  summary: 'Delete a future sprint; its tickets go back to the backlog',
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
];
