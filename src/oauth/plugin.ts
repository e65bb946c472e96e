import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { internalErrorMessage } from '../core/errors.ts';
import type { DB } from '../storage/schema.ts';
import { AddressLimiter } from './address-limiter.ts';
import { scheduleClientCleanup } from './cleanup.ts';
import { authorizeRoutes } from './endpoints/authorize.ts';
import { metadataRoute } from './endpoints/metadata.ts';
import { registerRoute } from './endpoints/register.ts';
import { revokeRoute } from './endpoints/revoke.ts';
import { tokenRoute } from './endpoints/token.ts';
import { InvalidRequest, OAuthError, oauthErrorBody, ServerError } from './errors.ts';
import type { MemberPages } from './member-pages.ts';

export interface OAuthOptions {
  db: Kysely<DB>;
  publicUrl: string;
  now(): Date;
  /** The log-in and consent pages, behind the one interface the engine knows. */
  pages: MemberPages;
  /** Spec 8: 60 token requests a minute and 30 registrations an hour per address. */
  tokenRequestsPerMinute?: number;
  registrationsPerHour?: number;
}

/** Decides once what a client sees: OAuth errors as they are, anything else a bare server_error. */
function toOAuthError(error: unknown, log: FastifyInstance['log']): OAuthError {
  if (error instanceof OAuthError) return error;
  const fastifyError = error as FastifyError;
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) {
    return new InvalidRequest('The request body could not be read; send form-encoded parameters or a JSON object');
  }
  log.error({ err: error }, 'unexpected error in the authorization server');
  return new ServerError('Something went wrong on our side');
}

/** The machine-facing endpoints: metadata, registration, token and revocation. */
async function oauthApi(app: FastifyInstance, options: OAuthOptions): Promise<void> {
  await app.register(formbody);
  app.setErrorHandler((error, request, reply) => {
    const oauthError = toOAuthError(error, request.log);
    return reply.code(oauthError.status).headers(oauthError.headers).header('Cache-Control', 'no-store').send(oauthErrorBody(oauthError));
  });
  const tokenLimiter = new AddressLimiter(options.tokenRequestsPerMinute ?? 60, 60_000);
  const registrationLimiter = new AddressLimiter(options.registrationsPerHour ?? 30, 3600_000);
  metadataRoute(app, options.publicUrl);
  registerRoute(app, { db: options.db, now: options.now, limiter: registrationLimiter });
  tokenRoute(app, { db: options.db, publicUrl: options.publicUrl, now: options.now, limiter: tokenLimiter });
  revokeRoute(app, { db: options.db, publicUrl: options.publicUrl, now: options.now, limiter: tokenLimiter });
}

/** The member-facing authorization endpoint: a browser page with cookies, no CORS. */
async function oauthBrowser(app: FastifyInstance, options: OAuthOptions): Promise<void> {
  await options.pages.install(app);
  app.setErrorHandler((error, request, reply) => {
    request.log.error({ err: error }, 'unexpected error on the authorization page');
    return options.pages.problem(reply, 500, `${internalErrorMessage(request.id)}.`);
  });
  authorizeRoutes(app, options);
}

/** The OAuth 2.1 authorization server of spec 5.2. */
export async function oauthServer(app: FastifyInstance, options: OAuthOptions): Promise<void> {
  await app.register(oauthApi, options);
  await app.register(oauthBrowser, options);
  scheduleClientCleanup(app, options.db, options.now);
}
