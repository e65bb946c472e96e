import { defineOperation } from '../../core/operation.ts';
import {
  AssigneeBody,
  Comment,
  CommentBody,
  CreateTicketBody,
  KeyParams,
  LoggedWork,
  SearchQuery,
  Ticket,
  TicketDetail,
  TicketSearchResult,
  TicketTransitions,
  TransitionBody,
  UpdateTicketBody,
  WorklogBody,
} from './schemas.ts';
import { assignTicket } from './assign.ts';
import { addComment } from './comments.ts';
import { createTicket } from './create.ts';
import { getTicket, listTransitions } from './load.ts';
import { searchTickets } from './search.ts';
import { transitionTicket } from './transitions.ts';
import { updateTicket } from './update.ts';
import { logWork } from './worklogs.ts';

const NAMES =
  'Names, not ids: projects by key, ticket types, priorities, resolutions and components by name (case-insensitive; describe_project lists them), labels lowercased with hyphens for spaces, people as `me`, a display name or an id. A name that matches nothing is refused with the names that would have matched.';

export const searchTicketsOperation = defineOperation({
  name: 'search_tickets',
  tool: 'search_tickets',
  method: 'GET',
  path: '/tickets',
  module: 'tickets',
  access: 'read',
  summary: 'Search tickets by words and filters',
  description:
    'Finds tickets the member can see. `query` matches words and the beginnings of words in keys, summaries, labels, descriptions, custom fields and comments (a ticket key such as `ATR-12` always finds that ticket); results are ranked by relevance and capped at 250 candidates. Without `query`, filters alone decide and the most recently updated come first. Filters: `project` (key), `status` (`open` = not done, `todo`, `in_progress`, `done`), `assignee` (`me`, `unassigned` or a person), `reporter`, `label`, `type`. Page with `limit` (1–100, default 20) and `offset` until `total` is reached. Call get_ticket for a ticket\'s full detail.',
  query: SearchQuery,
  response: TicketSearchResult,
  errors: ['not_found'],
  handler: (ctx, input) => searchTickets(ctx, input),
});

export const getTicketOperation = defineOperation({
  name: 'get_ticket',
  tool: 'get_ticket',
  method: 'GET',
  path: '/tickets/:key',
  module: 'tickets',
  access: 'read',
  summary: 'Read one ticket with comments, worklogs, links, subtasks and transitions',
  description:
    'Reads one ticket by key (`<PROJECT KEY>-<number>`, e.g. `ATR-12`): its fields, comments (oldest first), worklogs (newest first), links, subtasks, and the transitions you can take now (use their names with transition_ticket). Texts are Markdown; an `imported_wiki` text also carries the `markdown` an edit should start from. A ticket behind a security level you are not in is refused with 403.',
  params: KeyParams,
  response: TicketDetail,
  errors: ['not_found'],
  handler: (ctx, input) => getTicket(ctx, input.key),
});

export const listTransitionsOperation = defineOperation({
  name: 'list_transitions',
  tool: null,
  method: 'GET',
  path: '/tickets/:key/transitions',
  module: 'tickets',
  access: 'read',
  summary: 'List the transitions you can take on a ticket now',
  description:
    'The ticket\'s status and the workflow transitions the member may take from it now, each with the status it leads to. Pass a transition\'s name, id or target status name to POST /tickets/{key}/transitions.',
  params: KeyParams,
  response: TicketTransitions,
  errors: ['not_found'],
  handler: (ctx, input) => listTransitions(ctx, input.key),
});

export const createTicketOperation = defineOperation({
  name: 'create_ticket',
  tool: 'create_ticket',
  method: 'POST',
  path: '/tickets',
  module: 'tickets',
  access: 'write',
  summary: 'Create a ticket',
  description: `Creates a ticket in a project (by key) and answers it with its new key; you become its reporter and a watcher. Call describe_project first for the project's ticket types, priorities, components and assignable people. Left out: the type is the project's first, the priority the workspace default, the assignee the component's or project's default (an assignee is only taken from members who may assign). New labels are added to the project. \`parent\` is a key in the same project. \`fields\` are custom fields by key, checked before anything is created. The description is Markdown. ${NAMES}`,
  body: CreateTicketBody,
  response: Ticket,
  status: 201,
  errors: ['not_found', 'not_assignable', 'parent_not_found'],
  handler: (ctx, input) => createTicket(ctx, input),
});

export const updateTicketOperation = defineOperation({
  name: 'update_ticket',
  tool: 'update_ticket',
  method: 'PATCH',
  path: '/tickets/:key',
  module: 'tickets',
  access: 'write',
  summary: 'Change a ticket\'s fields',
  description: `Changes only the fields sent: summary, description (Markdown, replaces the whole text), type (only to one whose workflow has the current status), priority, assignee (or null), labels (replaces; [] removes all), components (replaces), parent (key or null), due_date (YYYY-MM-DD or null), fields (custom fields by key; null clears one). The status cannot be set here: use transition_ticket. Needs ticket:edit, or ticket:edit_own on a ticket you reported. ${NAMES}`,
  params: KeyParams,
  body: UpdateTicketBody,
  response: Ticket,
  errors: ['not_found', 'not_assignable', 'parent_not_found', 'status_not_in_workflow'],
  handler: (ctx, input) => {
    const { key, ...body } = input;
    return updateTicket(ctx, key, body);
  },
});

export const transitionTicketOperation = defineOperation({
  name: 'transition_ticket',
  tool: 'transition_ticket',
  method: 'POST',
  path: '/tickets/:key/transitions',
  module: 'tickets',
  access: 'write',
  summary: 'Move a ticket through its workflow',
  description:
    'Changes a ticket\'s status by taking a workflow transition, named by its name, its id, or the name of the status it leads to; get_ticket lists the transitions you can take now. Entering a done status sets a `resolution` (left out: the ticket keeps its resolution or gets the default); leaving it clears it. `assignee` and `fields` only where the transition\'s screen asks for them. `comment` (Markdown) is added with the move, `comment_internal` makes it an internal note. A transition that is not available, or a validator that refuses, changes nothing and answers 422 with the reason.',
  params: KeyParams,
  body: TransitionBody,
  response: Ticket,
  errors: ['not_found', 'transition_not_available', 'not_assignable'],
  handler: (ctx, input) => {
    const { key, ...body } = input;
    return transitionTicket(ctx, key, body);
  },
});

export const assignTicketOperation = defineOperation({
  name: 'assign_ticket',
  tool: 'assign_ticket',
  method: 'PUT',
  path: '/tickets/:key/assignee',
  module: 'tickets',
  access: 'write',
  summary: 'Assign a ticket, or unassign it with null',
  description:
    'Sets the assignee: `me`, a display name, an email address or a member id, among the project\'s assignable people (describe_project lists them); null unassigns. The present assignee is always accepted. An optional Markdown `comment` is added with it and sent to watchers as one notification.',
  params: KeyParams,
  body: AssigneeBody,
  response: Ticket,
  errors: ['not_found', 'not_assignable'],
  handler: (ctx, input) => {
    const { key, ...body } = input;
    return assignTicket(ctx, key, body);
  },
});

export const addCommentOperation = defineOperation({
  name: 'add_comment',
  tool: 'add_comment',
  method: 'POST',
  path: '/tickets/:key/comments',
  module: 'tickets',
  access: 'write',
  summary: 'Comment on a ticket',
  description:
    'Adds a Markdown comment to a ticket, timed now. `internal: true` makes it a helpdesk internal note that customers never see. `@username` in the text notifies that member; watchers are notified too.',
  params: KeyParams,
  body: CommentBody,
  response: Comment,
  status: 201,
  errors: ['not_found'],
  handler: (ctx, input) => {
    const { key, ...body } = input;
    return addComment(ctx, key, body);
  },
});

export const logWorkOperation = defineOperation({
  name: 'log_work',
  tool: 'log_work',
  method: 'POST',
  path: '/tickets/:key/worklogs',
  module: 'tickets',
  access: 'write',
  summary: 'Log time spent on a ticket',
  description:
    'Logs work on a ticket: `time_spent` in words (`1h 30m`, `45m`, `2d`, `1w`; a day is 8 hours, a week 5 days) or `time_spent_seconds`, `started_at` (ISO 8601, now when left out) and an optional Markdown `body`. The time adds to the ticket\'s time spent and comes off its remaining estimate (never below zero); the answer shows both totals after logging. Zero or anything that is not a duration is refused with invalid_duration.',
  params: KeyParams,
  body: WorklogBody,
  response: LoggedWork,
  status: 201,
  errors: ['not_found', 'invalid_duration'],
  handler: (ctx, input) => {
    const { key, ...body } = input;
    return logWork(ctx, key, body);
  },
});

export const ticketOperations = [
  searchTicketsOperation,
  getTicketOperation,
  listTransitionsOperation,
  createTicketOperation,
  updateTicketOperation,
  transitionTicketOperation,
  assignTicketOperation,
  addCommentOperation,
  logWorkOperation,
];
