import type { ModuleDefinition } from '../../core/module.ts';
import type { WorkspaceSectionHandler } from '../../workspace/context.ts';
import { ticketExtraOperations } from './extras/operations.ts';
import { ticketOperations } from './operations.ts';
import { ticketRecordVisibleSql } from './visibility.ts';
import { ticketsSection } from './workspace-section.ts';

/**
 * The tickets module's one door: what other modules, the pages and the composition root may use.
 * Nothing imports the module's other files.
 */
export const ticketsModule: ModuleDefinition<WorkspaceSectionHandler> = {
  name: 'tickets',
  operations: [...ticketOperations, ...ticketExtraOperations],
  workspaceSections: [ticketsSection],
  visibility: { ticket: ticketRecordVisibleSql },
};

// Extension points modules built on tickets fill in (helpdesk forms, CRM deals).
export type { DealCompanyChoice, HookProject, TicketDealHook, TicketForm, TicketRequestTypeHook } from './hooks.ts';

// The shapes of spec 2.4.
export {
  CreateTicketBody,
  Deal,
  KeyParams,
  Ticket,
  TicketDetail,
  TicketKey,
  TicketSearchResult,
  TicketSummary,
  TransitionBody,
  WatchState,
} from './schemas.ts';

// Reading tickets as a member sees them.
export { getTicket, loadVisibleTicket, presentTicketById, presentTicketRow } from './load.ts';
export { summaryCellsJson, summariesOf, type ListedSummary, type SummaryCells } from './names.ts';
export type { TicketRow, TicketState } from './repo.ts';
export { searchTickets } from './search.ts';

// Who may see a ticket (in SQL), and what each action on a ticket needs (spec 5.6, as a table).
export { mayDo, mayWriteInternalNote, requireTicketAction, TICKET_POLICY, type TicketAction } from './policy.ts';
export {
  readableCommentSql,
  ticketScope,
  ticketVisibleToSql,
  visibleTicketSql,
  type TicketScope,
} from './visibility.ts';

// Changing tickets the way the API does (history, notifications, search document included).
export { transitionInto, type TransitionChoice } from './moves.ts';
export { transitionLocked, transitionTicket } from './transitions.ts';
export { rankTicket } from './closing.ts';
export { ticketRow } from './locked-rows.ts';

// The worklog a time-tracking activity puts on its ticket, kept in step with it.
export { syncActivityWorklog, type ActivityWork } from './worklogs.ts';

// A member's own subscription to a ticket's changes (the ticket page's Watch button).
export { isWatching } from './watching.ts';

// What the pages' forms ask: a type's custom fields, the transitions' screens, whom a comment may mention.
export {
  commentChoices,
  customFieldsFor,
  mentionableMembers,
  transitionScreens,
  type FieldShape,
  type Mentionable,
  type ScreenComment,
  workflowTransitionNames,
  type TransitionScreen,
} from './screens.ts';
export { TransitionScreens } from './screen-operations.ts';

// The browser's share of a ticket (spec 1): attachments, votes, history and links, run as web-only operations.
export type {
  AddedAttachments,
  AttachmentFile,
  AttachmentList,
  RemovedAttachment,
  TicketHistory,
  TicketLinks,
  VoteState,
} from './extras/schemas.ts';
export { LINK_RELATIONS, type LinkRelation } from './link-relations.ts';
export { ticketVersionChoices, type VersionChoices } from './extras/versions.ts';
export { MAX_FILES_AT_ONCE } from './extras/schemas.ts';
export { contentDisposition, shownInPlace } from './extras/file-names.ts';
export { fileTooLarge, sizeWords } from './extras/attachments.ts';
export { AttachmentLimitBody, MOST_MEGABYTES, type AttachmentLimit } from './extras/attachment-limit.ts';
