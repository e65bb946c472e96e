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
  WatchState,
  WorklogBody,
} from './schemas.ts';
import { assignTicket } from './assign.ts';
import { addComment } from './comments.ts';
import { createTicket } from './create.ts';
import { getTicket, listTransitions } from './load.ts';
import { projectCounterRow, ticketRow } from './locked-rows.ts';
import { searchTickets } from './search.ts';
import { transitionTicket } from './transitions.ts';
import { updateTicket } from './update.ts';
import { setWatching } from './watching.ts';
import { logWork } from './worklogs.ts';
import { listTransitionScreensOperation } from './screen-operations.ts';

const NAMES =
  'Names as describe_project lists them (case-insensitive), labels lowercased, people as `me`, a name or an id; an unknown name is refused with the names that match.';

export const searchTicketsOperation = defineOperation({
  name: 'search_tickets',
  tool: 'search_tickets',
  method: 'GET',
  path: '/tickets',
  module: 'tickets',
  access: 'read',
  summary: 'Search tickets',
  description:
    "Finds tickets you can see. `query` matches words and word beginnings in keys, summaries, labels, descriptions, custom fields and comments (a key finds its ticket), ranked, at most 250 candidates; without it the latest updated come first. Page with `limit` and `offset` until `total`. get_ticket gives a ticket's detail.",
  query: SearchQuery,
  response: TicketSearchResult,
  answerAsBuilt: true,
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
  summary: 'Read a ticket',
  description:
    'Reads a ticket by key: fields, comments (oldest first), worklogs (newest first), links, subtasks and the transitions you can take now (for transition_ticket). Texts are Markdown; an `imported_wiki` text also carries the `markdown` to edit from. Behind a security level you are not in: 403.',
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
    "The ticket's status and the workflow transitions the member may take from it now, each with the status it leads to. Pass a transition's name, id or target status name to POST /tickets/{key}/transitions.",
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
  oneStatement: true,
  locksRow: projectCounterRow,
  summary: 'Create a ticket',
  description: `Creates a ticket and answers it with its key; you become reporter and watcher. describe_project gives the project's types, priorities, components and assignable people. Left out: the project's first type, the default priority, the component's or project's default assignee. New labels join the project; \`parent\` is a key in the same project; \`fields\` are checked before anything is created. ${NAMES}`,
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
  locksRow: ticketRow,
  summary: 'Change a ticket',
  description: `Changes only the fields sent; labels and components replace the lists, null clears. \`type\` only to one whose workflow has the current status; the status changes only through transition_ticket. Needs ticket:edit, or ticket:edit_own on a ticket you reported. ${NAMES}`,
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
  // one statement as a rule: decided on the ticket as read, written only if it still is (transitions.ts)
  oneStatement: true,
  checkedByFirstRead: true,
  locksRow: ticketRow,
  summary: 'Transition a ticket',
  description:
    "Takes a workflow transition by its name, id or target status (get_ticket lists those you can take). Entering a done status sets `resolution` (left out: kept, or the default); leaving one clears it. `assignee` and `fields` only where the transition's screen asks; `comment` is added with the move. A transition not available, or a validator's refusal, changes nothing (422 with the reason).",
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
  locksRow: ticketRow,
  summary: 'Assign a ticket',
  description:
    "Sets the assignee among the project's assignable people (describe_project), or null to unassign; the present assignee is always accepted. A `comment` goes with it, notified to watchers as one notification.",
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
  oneStatement: true,
  checkedByFirstRead: true,
  locksRow: ticketRow,
  summary: 'Comment on a ticket',
  description:
    'Adds a Markdown comment. `internal: true` makes it a helpdesk internal note customers never see. `@username` notifies that member; watchers are notified too.',
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
  locksRow: ticketRow,
  oneStatement: true,
  checkedByFirstRead: true,
  summary: 'Log work on a ticket',
  description:
    'Logs time on a ticket: `time_spent` in words or `time_spent_seconds`. It adds to the time spent and comes off the remaining estimate (not below zero); the answer shows both. Zero or a non-duration: 422 invalid_duration.',
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

// Watchers are the browser's (spec 1, "Not in the API"): web-only, never a route or a tool.

export const watchTicketOperation = defineOperation({
  name: 'watch_ticket',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  summary: 'Watch a ticket',
  description:
    'The member starts watching a ticket they can see: they are told of its changes. Their own subscription, not a change of the ticket: no history.',
  params: KeyParams,
  response: WatchState,
  errors: ['not_found'],
  handler: async (ctx, input) => ({ key: await setWatching(ctx, input.key, true), watching: true }),
});

export const unwatchTicketOperation = defineOperation({
  name: 'unwatch_ticket',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  summary: 'Stop watching a ticket',
  description: 'The member stops watching a ticket they can see.',
  params: KeyParams,
  response: WatchState,
  errors: ['not_found'],
  handler: async (ctx, input) => ({ key: await setWatching(ctx, input.key, false), watching: false }),
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
  watchTicketOperation,
  unwatchTicketOperation,
  listTransitionScreensOperation,
];
