import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { errorHandler, notFoundHandler } from './fallbacks.ts';
import { LoginThrottle } from './login-throttle.ts';
import { activityRoutes } from './pages/activity.ts';
import { adminAuditRoutes } from './pages/admin-audit.ts';
import { adminSettingsRoutes } from './pages/admin-settings.ts';
import { agentsRoutes } from './pages/agents.ts';
import { boardRoutes } from './pages/board.ts';
import { browseRoutes, watchRoutes } from './pages/browse.ts';
import { eventRoutes } from './pages/events.ts';
import { knowledgeTrashRoutes } from './pages/knowledge-trash.ts';
import { homeRoutes } from './pages/home.ts';
import { loginRoutes } from './pages/login.ts';
import { notificationRoutes } from './pages/notifications.ts';
import { personRoutes } from './pages/person.ts';
import { projectRoutes } from './pages/project.ts';
import { refuseFormsWhileReadOnly } from './read-only.ts';
import { newTicketRoutes } from './pages/tickets/new-ticket.ts';
import { boardListRoutes } from './pages/boards/list.ts';
import { crmRoutes } from './pages/crm/landing.ts';
import { knowledgeRoutes } from './pages/knowledge/landing.ts';
import { searchRoutes } from './pages/search.ts';
import { timeRoutes } from './pages/time/landing.ts';
import { addPageHeaders } from './security-headers.ts';
import type { PagesDeps } from './session.ts';

/** The browser pages: log in and out, home, projects, people, AI agents, what my agents did, settings, audit log, tickets, boards, notifications and their live updates. Cookies live only here. */
export async function webPages(app: FastifyInstance, deps: PagesDeps): Promise<void> {
  await app.register(cookie);
  await app.register(formbody);
  addPageHeaders(app);
  refuseFormsWhileReadOnly(app, deps);
  app.setErrorHandler(errorHandler);
  // every unknown path but /api/v1's (the OAuth server's machine paths included): a page for a browser, JSON otherwise
  app.setNotFoundHandler(notFoundHandler(deps));
  homeRoutes(app, deps);
  loginRoutes(app, deps, new LoginThrottle());
  agentsRoutes(app, deps);
  activityRoutes(app, deps);
  adminSettingsRoutes(app, deps);
  adminAuditRoutes(app, deps);
  browseRoutes(app, deps);
  newTicketRoutes(app, deps);
  watchRoutes(app, deps);
  boardRoutes(app, deps);
  boardListRoutes(app, deps);
  knowledgeRoutes(app, deps);
  timeRoutes(app, deps);
  crmRoutes(app, deps);
  searchRoutes(app, deps);
  projectRoutes(app, deps);
  personRoutes(app, deps);
  notificationRoutes(app, deps);
  knowledgeTrashRoutes(app, deps);
  eventRoutes(app, deps);
}
