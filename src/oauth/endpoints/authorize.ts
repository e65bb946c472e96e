import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashSecret } from '../../auth/token-format.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
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
import type { LoggedInMember, MemberPages } from '../member-pages.ts';
import { accessOf, scopeFor } from '../scope.ts';

const MAX_STATE = 2048;

export interface AuthorizeDeps<M extends LoggedInMember> {
  db: Kysely<DB>;
  publicUrl: string;
  now(): Date;
  pages: MemberPages<M>;
}

function redirectError(
  reply: FastifyReply,
  redirectUri: string,
  error: OAuthError,
  state: string | undefined,
  issuer: string,
): FastifyReply {
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
  const resource = checkResource(
    single(params, 'resource', () => new InvalidRequest('resource must not be repeated')),
    publicUrl,
  );
  return { challenge, access, resource };
}

function stateOf(params: RawParameters): string | undefined {
  const state = params.state;
  return typeof state === 'string' && state !== '' ? state : undefined;
}

async function showConsent<M extends LoggedInMember>(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AuthorizeDeps<M>,
  member: M,
): Promise<FastifyReply> {
  const params = request.query as RawParameters;
  let target: Awaited<ReturnType<typeof checkClientAndRedirect>>;
  try {
    target = await checkClientAndRedirect(deps.db, params);
  } catch (error) {
    if (error instanceof NotRedirectable) return deps.pages.problem(reply, 400, error.message, member);
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
      session_hash: member.sessionHash,
      member_id: member.memberId,
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
  return deps.pages.askConsent(reply, member, {
    consentId: consent.id,
    applicationName: applicationName(client),
    redirectUri,
    requested: checked.access,
    resource: checked.resource,
  });
}

/** The member's answer: the code is made from the stored request, never from form fields (UI-4). */
async function answerConsent<M extends LoggedInMember>(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AuthorizeDeps<M>,
): Promise<FastifyReply> {
  const answer = await deps.pages.readAnswer(request);
  if ('refused' in answer) return deps.pages.problem(reply, 403, answer.refused, answer.member);
  const { member, consentId } = answer;
  const now = deps.now();
  const consent = await deps.db
    .updateTable('oauth_consents')
    .set({ answered_at: now.toISOString() })
    .where('id', '=', consentId)
    .where('session_hash', '=', member.sessionHash)
    .where('member_id', '=', member.memberId)
    .where('answered_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .returningAll()
    .executeTakeFirst();
  if (!consent) {
    return deps.pages.problem(reply, 400, 'This request was already answered or has expired. Start again from the application.', member);
  }
  const state = consent.state ?? undefined;
  if (!answer.approved) {
    return reply.redirect(
      authorizationResponse(consent.redirect_uri, {
        error: 'access_denied',
        error_description: 'The member declined',
        state,
        iss: deps.publicUrl,
      }),
      303,
    );
  }
  // Only what was asked, and only write if the member chose it (they may grant less).
  const access = accessOf(consent.scope) === 'write' && answer.access === 'write' ? 'write' : 'read';
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
export function authorizeRoutes<M extends LoggedInMember>(app: FastifyInstance, deps: AuthorizeDeps<M>): void {
  app.get('/oauth/authorize', async (request, reply) => {
    const member = await deps.pages.loggedIn(request);
    if (!member) {
      // The client and redirect are checked first so an unknown one is an error page at once;
      // anything else waits until the member has logged in (no open redirector, RFC 9700 §4.11.2).
      try {
        await checkClientAndRedirect(deps.db, request.query as RawParameters);
      } catch (error) {
        if (error instanceof NotRedirectable) return deps.pages.problem(reply, 400, error.message);
        throw error;
      }
      return deps.pages.askToLogIn(request, reply, request.url);
    }
    return showConsent(request, reply, deps, member);
  });
  app.post('/oauth/authorize', async (request, reply) => answerConsent(request, reply, deps));
}
