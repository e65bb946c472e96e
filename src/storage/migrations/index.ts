import type { Migration } from 'kysely';
import * as platform from './0001-platform.ts';
import * as tickets from './0002-tickets.ts';
import * as oauth from './0003-oauth.ts';
import * as boards from './0004-boards.ts';
import * as helpdesk from './0005-helpdesk.ts';
import * as searchWords from './0009-search-words.ts';
import * as accessIndexes from './0010-access-indexes.ts';
import * as notifications from './0011-notifications.ts';
import * as knowledge from './0012-knowledge.ts';
import * as time from './0013-time.ts';
import * as crm from './0014-crm.ts';
import * as pageFlashes from './0015-page-flashes.ts';
import * as crmRestorable from './0016-crm-restorable.ts';
import * as keptCommentWords from './0017-kept-comment-words.ts';
import * as eventsWhenListened from './0018-events-when-listened.ts';
import * as ticketFilterIndex from './0019-ticket-filter-index.ts';
import * as numberedAtClose from './0020-numbered-at-close.ts';
import * as createdInOneStatement from './0021-created-in-one-statement.ts';
import * as labelNamesOnTicket from './0022-label-names-on-ticket.ts';
import * as tokenCheck from './0023-token-check.ts';
import * as countingIndexes from './0024-counting-indexes.ts';
import * as contendedRowsApart from './0025-contended-rows-apart.ts';
import * as contactTotals from './0026-contact-totals.ts';
import * as commentsJoined from './0027-comments-joined.ts';
import * as ticketAsRead from './0028-ticket-as-read.ts';
import * as documentsInPlpgsql from './0029-documents-in-plpgsql.ts';
import * as readOnlyWorkspace from './0030-read-only-workspace.ts';
import * as auditFormsOrder from './0031-audit-forms-order.ts';
import * as pageWords from './0032-page-words.ts';
import * as searchDocumentsThatFit from './0033-search-documents-that-fit.ts';
import * as ticketAttachmentsVotes from './0034-ticket-attachments-votes.ts';
import * as boardViews from './0035-board-views.ts';
import * as searchDocumentsRestorable from './0036-search-documents-restorable.ts';

/** Every migration in order; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '0001-platform': platform,
  '0002-tickets': tickets,
  '0003-oauth': oauth,
  '0004-boards': boards,
  '0005-helpdesk': helpdesk,
  '0009-search-words': searchWords,
  '0010-access-indexes': accessIndexes,
  '0011-notifications': notifications,
  '0012-knowledge': knowledge,
  '0013-time': time,
  '0014-crm': crm,
  '0015-page-flashes': pageFlashes,
  '0016-crm-restorable': crmRestorable,
  '0017-kept-comment-words': keptCommentWords,
  '0018-events-when-listened': eventsWhenListened,
  '0019-ticket-filter-index': ticketFilterIndex,
  '0020-numbered-at-close': numberedAtClose,
  '0021-created-in-one-statement': createdInOneStatement,
  '0022-label-names-on-ticket': labelNamesOnTicket,
  '0023-token-check': tokenCheck,
  '0024-counting-indexes': countingIndexes,
  '0025-contended-rows-apart': contendedRowsApart,
  '0026-contact-totals': contactTotals,
  '0027-comments-joined': commentsJoined,
  '0028-ticket-as-read': ticketAsRead,
  '0029-documents-in-plpgsql': documentsInPlpgsql,
  '0030-read-only-workspace': readOnlyWorkspace,
  '0031-audit-forms-order': auditFormsOrder,
  '0032-page-words': pageWords,
  '0033-search-documents-that-fit': searchDocumentsThatFit,
  '0034-ticket-attachments-votes': ticketAttachmentsVotes,
  '0035-board-views': boardViews,
  '0036-search-documents-restorable': searchDocumentsRestorable,
};
