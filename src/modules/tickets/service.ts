// The tickets module's service: one file per operation family, gathered here for the operations,
// the ticket page (getTicket) and the modules built on tickets (boards, helpdesk, CRM).
export { getTicket, listTransitions, loadVisibleTicket, presentTicketById } from './load.ts';
export { createTicket } from './create.ts';
export { updateTicket } from './update.ts';
export { transitionTicket } from './transitions.ts';
export { assignTicket } from './assign.ts';
export { addComment } from './comments.ts';
export { logWork } from './worklogs.ts';
export { searchTickets } from './search.ts';
