import { defineOperation } from '../../../core/operation.ts';
import { KeyParams, Ticket } from '../schemas.ts';
import { AttachmentLimit, AttachmentLimitBody, setAttachmentLimit } from './attachment-limit.ts';
import { addAttachments, deleteAttachment, listAttachments, readAttachment } from './attachments.ts';
import { readTicketHistory } from './history.ts';
import { linkTickets, listLinks, unlinkTickets } from './links.ts';
import {
  AddedAttachments,
  AttachmentFile,
  AttachmentList,
  AttachmentParams,
  LinkBody,
  RemovedAttachment,
  TicketHistory,
  TicketLinks,
  UploadBody,
  VersionsBody,
  VoteState,
} from './schemas.ts';
import { setTicketVersions } from './versions.ts';
import { readVotes, setVote } from './votes.ts';

// Attachments, votes and ticket history are the browser's (spec 1, "Not in the API"): web-only
// operations, never a route or a tool. ADR 0070 holds their policy.

export const listAttachmentsOperation = defineOperation({
  name: 'list_attachments',
  doors: 'web',
  module: 'tickets',
  access: 'read',
  summary: "List a ticket's attachments",
  description: 'The files on a ticket the member can see, oldest first, with who added them and whether the member may delete each.',
  params: KeyParams,
  response: AttachmentList,
  errors: ['not_found'],
  handler: (ctx, input) => listAttachments(ctx, input.key),
});

export const addAttachmentsOperation = defineOperation({
  name: 'add_attachments',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  summary: 'Attach files to a ticket',
  description:
    "Attaches one or more files, all or none: each at most the workspace's limit (413 payload_too_large otherwise). Needs ticket:comment; recorded in the ticket's history.",
  params: KeyParams,
  body: UploadBody,
  response: AddedAttachments,
  status: 201,
  errors: ['not_found', 'payload_too_large'],
  handler: (ctx, input) => addAttachments(ctx, input.key, { files: input.files }),
});

export const deleteAttachmentOperation = defineOperation({
  name: 'delete_attachment',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  destructive: true,
  summary: 'Delete an attachment',
  description:
    "Deletes a file from a ticket: its uploader (while they may attach), or a member with ticket:edit. Recorded in the ticket's history.",
  params: AttachmentParams,
  response: RemovedAttachment,
  errors: ['not_found'],
  handler: (ctx, input) => deleteAttachment(ctx, input.key, input.attachment),
});

export const downloadAttachmentOperation = defineOperation({
  name: 'download_attachment',
  doors: 'web',
  module: 'tickets',
  access: 'read',
  summary: 'Download an attachment',
  description: 'The bytes of one file on a ticket the member can see.',
  params: AttachmentParams,
  response: AttachmentFile,
  errors: ['not_found'],
  handler: (ctx, input) => readAttachment(ctx, input.key, input.attachment),
});

export const listVotesOperation = defineOperation({
  name: 'list_votes',
  doors: 'web',
  module: 'tickets',
  access: 'read',
  summary: "Read a ticket's votes",
  description: 'How many members voted for a ticket, who, and whether the member did.',
  params: KeyParams,
  response: VoteState,
  errors: ['not_found'],
  handler: (ctx, input) => readVotes(ctx, input.key),
});

export const voteOperation = defineOperation({
  name: 'vote_ticket',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  summary: 'Vote for a ticket',
  description: 'The member votes for a ticket they can see, once; its reporter may not (403).',
  params: KeyParams,
  response: VoteState,
  errors: ['not_found'],
  handler: (ctx, input) => setVote(ctx, input.key, true),
});

export const unvoteOperation = defineOperation({
  name: 'unvote_ticket',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  summary: 'Take back a vote',
  description: 'The member takes back their vote for a ticket they can see.',
  params: KeyParams,
  response: VoteState,
  errors: ['not_found'],
  handler: (ctx, input) => setVote(ctx, input.key, false),
});

export const ticketHistoryOperation = defineOperation({
  name: 'ticket_history',
  doors: 'web',
  module: 'tickets',
  access: 'read',
  summary: "Read a ticket's history",
  description:
    "Every recorded change of a ticket the member can see, oldest first: who made it and, for an agent, the token's name beside it.",
  params: KeyParams,
  response: TicketHistory,
  errors: ['not_found'],
  handler: (ctx, input) => readTicketHistory(ctx, input.key),
});

export const setAttachmentLimitOperation = defineOperation({
  name: 'set_attachment_limit',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  summary: 'Set the largest file an attachment may be',
  description: "The administrator's per-file limit of attachments, in MB (25 unless changed); written to the audit log.",
  body: AttachmentLimitBody,
  response: AttachmentLimit,
  errors: [],
  handler: (ctx, input) => setAttachmentLimit(ctx, input.max_megabytes),
});

// Links between tickets: spec 2.4 reads them on a ticket, and no API operation writes them. ADR
// "ticket links" holds their rules.

export const listLinksOperation = defineOperation({
  name: 'list_ticket_links',
  doors: 'web',
  module: 'tickets',
  access: 'read',
  summary: "Read a ticket's links",
  description: 'The links of a ticket the member can see, as TicketDetail lists them, and whether the member may change them.',
  params: KeyParams,
  response: TicketLinks,
  errors: ['not_found'],
  handler: (ctx, input) => listLinks(ctx, input.key),
});

export const linkTicketsOperation = defineOperation({
  name: 'link_tickets',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  summary: 'Link a ticket to another',
  description:
    "Links the ticket to another the member can see, the relation read from this ticket (`is blocked by`: the other blocks this one). Needs ticket:edit on this ticket; not to itself, not twice (422). Recorded in both tickets' histories.",
  params: KeyParams,
  body: LinkBody,
  response: TicketLinks,
  errors: ['not_found'],
  handler: (ctx, input) => linkTickets(ctx, input.key, { relation: input.relation, ticket: input.ticket }),
});

export const unlinkTicketsOperation = defineOperation({
  name: 'unlink_tickets',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  destructive: true,
  summary: 'Remove a link between two tickets',
  description:
    "Removes the link that reads as the relation from this ticket to the other. Needs ticket:edit on this ticket; recorded in both tickets' histories.",
  params: KeyParams,
  body: LinkBody,
  response: TicketLinks,
  errors: ['not_found'],
  handler: (ctx, input) => unlinkTickets(ctx, input.key, { relation: input.relation, ticket: input.ticket }),
});

// A ticket's versions: the spec's Ticket has them, and neither POST /tickets nor PATCH
// /tickets/{key} takes them (ADR 0077).

export const setTicketVersionsOperation = defineOperation({
  name: 'set_ticket_versions',
  doors: 'web',
  module: 'tickets',
  access: 'write',
  summary: "Set a ticket's fix and affected versions",
  description:
    "Each list sent (names of the project's versions, case-insensitive) replaces the ticket's; one left out stays. An unknown or archived version not already on the list is 422 at its pointer. Needs ticket:edit; the lists that changed are one history entry.",
  params: KeyParams,
  body: VersionsBody,
  response: Ticket,
  errors: ['not_found'],
  handler: (ctx, input) =>
    setTicketVersions(ctx, input.key, { fix_versions: input.fix_versions, affected_versions: input.affected_versions }),
});

export const ticketExtraOperations = [
  listAttachmentsOperation,
  addAttachmentsOperation,
  deleteAttachmentOperation,
  downloadAttachmentOperation,
  listVotesOperation,
  voteOperation,
  unvoteOperation,
  ticketHistoryOperation,
  setAttachmentLimitOperation,
  listLinksOperation,
  linkTicketsOperation,
  unlinkTicketsOperation,
  setTicketVersionsOperation,
];
