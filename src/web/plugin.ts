import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { errorHandler, notFoundHandler } from './fallbacks.ts';
import { LoginThrottle } from './login-throttle.ts';
import { loginRoutes } from './pages/account/login.ts';
import { adminAuditRoutes } from './pages/admin/audit.ts';
import { adminSettingsRoutes } from './pages/admin/settings.ts';
import { activityRoutes } from './pages/agents/activity.ts';
import { agentsRoutes } from './pages/agents/tokens.ts';
import { boardAdminRoutes } from './pages/boards/admin/routes.ts';
import { backlogRoutes } from './pages/boards/backlog-page.ts';
import { boardRoutes } from './pages/boards/board-page.ts';
import { cardMoveRoutes } from './pages/boards/card-moves.ts';
import { movePageRoutes } from './pages/boards/move-page.ts';
import { boardListRoutes } from './pages/boards/list.ts';
import { sprintReportRoutes } from './pages/boards/sprint-report.ts';
import { sprintRoutes } from './pages/boards/sprint-actions.ts';
import { crmRoutes } from './pages/crm/landing.ts';
import { requestTypeFormRoutes } from './pages/helpdesk/request-type-form.ts';
import { requestTypeListRoutes } from './pages/helpdesk/request-types.ts';
import { knowledgeRoutes } from './pages/knowledge/landing.ts';
import { knowledgeTrashRoutes } from './pages/knowledge/trash.ts';
import { eventRoutes } from './pages/live/events.ts';
import { notificationRoutes } from './pages/notifications/inbox.ts';
import { personRoutes } from './pages/people/person-page.ts';
import { homeRoutes } from './pages/projects/home.ts';
import { projectRoutes } from './pages/projects/project-page.ts';
import { searchRoutes } from './pages/search/search.ts';
import { attachmentRoutes } from './pages/tickets/attachments.ts';
import { newTicketRoutes } from './pages/tickets/new-ticket.ts';
import { ticketRoutes, watchRoutes } from './pages/tickets/ticket-page.ts';
import { ticketSearchRoutes } from './pages/tickets/ticket-search.ts';
import { voteRoutes } from './pages/tickets/votes.ts';
import { timeRoutes } from './pages/time/landing.ts';
import { refuseFormsWhileReadOnly } from './read-only.ts';
import { addPageHeaders } from './security-headers.ts';
import type { PagesDeps } from './session.ts';

/** The browser pages, one folder of src/web/pages/ per module. Cookies live only here. */
export async function webPages(app: FastifyInstance, deps: PagesDeps): Promise<void> {
  await app.register(cookie);
  await app.register(formbody);
  addPageHeaders(app);
  refuseFormsWhileReadOnly(app, deps);
  app.setErrorHandler(errorHandler);
  // every unknown path but /api/v1's (the OAuth server's machine paths included): a page for a browser, JSON otherwise
  app.setNotFoundHandler(notFoundHandler(deps));

  // account: log in and out (the OAuth consent page is drawn for the authorization server, oauth-pages.ts)
  loginRoutes(app, deps, new LoginThrottle());
  // projects: home and a project
  homeRoutes(app, deps);
  projectRoutes(app, deps);
  // people
  personRoutes(app, deps);
  // tickets: a ticket, Watch, create
  ticketRoutes(app, deps);
  watchRoutes(app, deps);
  // tickets: attachments and votes (the ticket page's sections, with its history)
  attachmentRoutes(app, deps);
  voteRoutes(app, deps);
  newTicketRoutes(app, deps);
  // tickets: the search with its filters, and a change to the tickets it found
  ticketSearchRoutes(app, deps);
  // boards: the list, a board with its card moves, the backlog with its sprints, settings and reports
  boardListRoutes(app, deps);
  boardRoutes(app, deps);
  cardMoveRoutes(app, deps);
  backlogRoutes(app, deps);
  movePageRoutes(app, deps);
  sprintRoutes(app, deps);
  boardAdminRoutes(app, deps);
  sprintReportRoutes(app, deps);
  // helpdesk: a project's portal forms
  requestTypeListRoutes(app, deps);
  requestTypeFormRoutes(app, deps);
  // knowledge base: spaces, pages and a space's trash
  knowledgeRoutes(app, deps);
  knowledgeTrashRoutes(app, deps);
  // time tracking
  timeRoutes(app, deps);
  // CRM
  crmRoutes(app, deps);
  // search: the search box and the command palette
  searchRoutes(app, deps);
  // notifications
  notificationRoutes(app, deps);
  // AI agents: tokens and connected applications, and what the member's agents did
  agentsRoutes(app, deps);
  activityRoutes(app, deps);
  // administration: settings and the audit log
  adminSettingsRoutes(app, deps);
  adminAuditRoutes(app, deps);
  // live: the pages' server-sent events
  eventRoutes(app, deps);
}
