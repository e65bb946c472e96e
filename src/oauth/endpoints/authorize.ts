import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret } from '../../auth/token-format.ts';
import { readSettings } from '../../core/settings.ts';
import { renderConsent } from '../../web/pages/consent.ts';
import { renderLogin } from '../../web/pages/login.ts';
import { errorPage, sendPage, viewerOf } from '../../web/respond.ts';
import { csrfMatches, csrfToken, currentSession, foreignOrigin, type Session, type WebDeps } from '../../web/session.ts';
import { authorizationResponse } from '../authorization-response.ts';
import { checkClientAndRedirect, NotRedirectable } from '../checks/client-and-redirect.ts';
import { checkCodeChallenge } from '../checks/code-challenge.ts';
import { checkRequestedScope } from '../checks/requested-scope.ts';
import { checkResource } from '../checks/resource.ts';
import { checkResponseType } from '../checks/response-type.ts';
import { single, type RawParameters } from '../checks/single-parameters.ts';
import { applicationName, registeredAccess, type Client } from '../clients.ts';
import { InvalidRequest, OAuthError } from '../errors.ts';
import { CODE_LIFETIME, CONSENT_LIFETIME, secondsFrom } from '../lifetimes.ts';
import { accessOf, scopeFor } from '../scope.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_STATE = 2048;

function redirectError(reply: FastifyReply, redirectUri: string, error: OAuthError, state: string | undefined, issuer: string): FastifyReply {
  return reply.redirect(
    authorizationResponse(redirectUri, { error: error.code, error_description: error.description, state, iss: issuer }),
    303,
  );
}

/** The request's own parameters, checked one rule at a time once client and redirect are known. */
function checkRequest(params: RawParameters, publicUrl: string, client: Client) {
  checkResponseType(single(params, 'response_type'));
  const challenge = checkCodeChallenge(single(params, 'code_challenge'), single(params, 'code_challenge_method'));
  const access = checkRequestedScope(single(params, 'scope'), registeredAccess(client));
  // One audience per token: a repeated resource is refused like a foreign one (RES-2).
  const resource = checkResource(single(params, 'resource', () => new InvalidRequest('resource must not be repeated')), publicUrl);
  return { challenge, access, resource };
}

function stateOf(params: RawParameters): string | undefined {
  const state = params.state;
  return typeof state === 'string' && state !== '' ? state : undefined;
}

async function showConsent(request: FastifyRequest, reply: FastifyReply, deps: WebDeps, session: Session): Promise<FastifyReply> {
  const params = request.query as RawParameters;
  let target: Awaited<ReturnType<typeof checkClientAndRedirect>>;
  try {
    target = await checkClientAndRedirect(deps.db, params);
  } catch (error) {
    if (error instanceof NotRedirectable) return errorPage(reply, 400, error.message, viewerOf(session));
    throw error;
  }
  const { client, redirectUri } = target;
  const state = stateOf(params);
  let checked: ReturnType<typeof checkRequest>;
  try {
    if (Array.isArray(params.state)) throw new InvalidRequest('state must not be repeated');
    if (state !== undefined && state.length > MAX_STATE) throw new InvalidRequest(`state must be at most ${MAX_STATE} characters`);
    checked = checkRequest(params, deps.publicUrl, client);
  } catch (error) {
    if (error instanceof OAuthError) return redirectError(reply, redirectUri, error, state, deps.publicUrl);
    throw error;
  }
  const consent = await deps.db
    .insertInto('oauth_consents')
    .values({
      session_hash: session.hash,
      member_id: session.memberId,
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: checked.challenge,
      scope: scopeFor(checked.access),
      resource: checked.resource,
      state: state ?? null,
      expires_at: secondsFrom(deps.now(), CONSENT_LIFETIME),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const settings = await readSettings(deps.db);
  return sendPage(
    reply,
    renderConsent({
      consentId: consent.id,
      csrf: csrfToken(session.cookie, `consent:${consent.id}`),
      applicationName: applicationName(client),
      redirectUri,
      requested: checked.access,
      resource: checked.resource,
      publicUrl: deps.publicUrl,
      workspaceName: settings.name,
      viewer: viewerOf(session),
    }),
  );
}

/** The member's answer: the code is made from the stored request, never from form fields (UI-4). */
async function answerConsent(request: FastifyRequest, reply: FastifyReply, deps: WebDeps): Promise<FastifyReply> {
  const form = (request.body ?? {}) as Record<string, unknown>;
  const session = await currentSession(request, deps);
  if (!session) return errorPage(reply, 403, 'You are not logged in any more. Start again from the application.');
  const consentId = typeof form.consent === 'string' && UUID.test(form.consent) ? form.consent : null;
  if (foreignOrigin(request, deps) || !consentId || !csrfMatches(session.cookie, `consent:${consentId}`, form.csrf)) {
    return errorPage(reply, 403, 'This form has expired or did not come from this site.', viewerOf(session));
  }
  const now = deps.now();
  const consent = await deps.db
    .updateTable('oauth_consents')
    .set({ answered_at: now.toISOString() })
    .where('id', '=', consentId)
    .where('session_hash', '=', session.hash)
    .where('member_id', '=', session.memberId)
    .where('answered_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .returningAll()
    .executeTakeFirst();
  if (!consent) {
    return errorPage(reply, 400, 'This request was already answered or has expired. Start again from the application.', viewerOf(session));
  }
  const state = consent.state ?? undefined;
  if (form.decision !== 'approve') {
    return reply.redirect(
      authorizationResponse(consent.redirect_uri, { error: 'access_denied', error_description: 'The member declined', state, iss: deps.publicUrl }),
      303,
    );
  }
  // Only what was asked, and only write if the member chose it (they may grant less).
  const access = accessOf(consent.scope) === 'write' && form.access === 'write' ? 'write' : 'read';
  const code = randomBytes(32).toString('base64url');
  await deps.db
    .insertInto('oauth_codes')
    .values({
      code_hash: hashSecret(code),
      client_id: consent.client_id,
      member_id: consent.member_id,
      redirect_uri: consent.redirect_uri,
      code_challenge: consent.code_challenge,
      scope: scopeFor(access),
      resource: consent.resource,
      expires_at: secondsFrom(now, CODE_LIFETIME),
      created_at: now.toISOString(),
    })
    .execute();
  return reply.redirect(authorizationResponse(consent.redirect_uri, { code, state, iss: deps.publicUrl }), 303);
}

/** GET /oauth/authorize (log in if needed, then consent) and POST /oauth/authorize (the answer). */
export function authorizeRoutes(app: FastifyInstance, deps: WebDeps): void {
  app.get('/oauth/authorize', async (request, reply) => {
    const session = await currentSession(request, deps);
    if (!session) {
      // The client and redirect are checked first so an unknown one is an error page at once;
      // anything else waits until the member has logged in (no open redirector, RFC 9700 §4.11.2).
      try {
        await checkClientAndRedirect(deps.db, request.query as RawParameters);
      } catch (error) {
        if (error instanceof NotRedirectable) return errorPage(reply, 400, error.message);
        throw error;
      }
      return renderLogin(request, reply, deps, request.url);
    }
    return showConsent(request, reply, deps, session);
  });
  app.post('/oauth/authorize', async (request, reply) => answerConsent(request, reply, deps));
}
