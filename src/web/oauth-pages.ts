import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { readSettings } from '../core/settings.ts';
import type { LoggedInMember, MemberPages } from '../oauth/index.ts';
import { renderConsent } from './pages/account/consent.ts';
import { renderLogin } from './pages/account/login.ts';
import { errorPage, sendPage, viewerOf } from './respond.ts';
import { addPageHeaders } from './security-headers.ts';
import { csrfMatches, csrfToken, currentSession, foreignOrigin, type Session, type WebDeps } from './session.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The pages' record of the member: the session, whose cookie binds the consent form's CSRF token,
 * and whether the workspace is read-only (said on every page shown to them).
 */
export interface PageMember extends LoggedInMember {
  session: Session;
  readOnly: boolean;
}

async function pageMember(deps: WebDeps, session: Session): Promise<PageMember> {
  const { readOnly } = await readSettings(deps.db);
  return { memberId: session.memberId, sessionHash: session.hash, session, readOnly };
}

/** The log-in and consent pages as the OAuth engine sees them (oauth/member-pages.ts). */
export function authorizationPages(deps: WebDeps): MemberPages<PageMember> {
  return {
    async install(app: FastifyInstance) {
      await app.register(cookie);
      await app.register(formbody);
      addPageHeaders(app);
    },

    async loggedIn(request) {
      const session = await currentSession(request, deps);
      return session ? pageMember(deps, session) : null;
    },

    askToLogIn(request, reply, returnTo) {
      return renderLogin(request, reply, deps, returnTo);
    },

    async askConsent(reply, member, question) {
      const settings = await readSettings(deps.db);
      const page = renderConsent({
        ...question,
        csrf: csrfToken(member.session.cookie, `consent:${question.consentId}`),
        publicUrl: deps.publicUrl,
        workspaceName: settings.name,
        viewer: viewerOf(member.session, settings),
      });
      return sendPage(reply, page);
    },

    async readAnswer(request) {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const session = await currentSession(request, deps);
      if (!session) return { refused: 'You are not logged in any more. Start again from the application.', member: null };
      const member = await pageMember(deps, session);
      const consentId = typeof form.consent === 'string' && UUID.test(form.consent) ? form.consent : null;
      if (foreignOrigin(request, deps) || !consentId || !csrfMatches(session.cookie, `consent:${consentId}`, form.csrf)) {
        return { refused: 'This form has expired or did not come from this site.', member };
      }
      return { member, consentId, approved: form.decision === 'approve', access: form.access === 'write' ? 'write' : 'read' };
    },

    problem(reply, status, message, member) {
      return errorPage(reply, status, message, member ? viewerOf(member.session, member) : undefined);
    },
  };
}
