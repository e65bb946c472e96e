/**
 * OAuth errors, one class per RFC code, each with its status (spec 5.2). An OAuth code is never
 * derived from an HTTP status: endpoints throw these, and one handler turns them into
 * `{"error","error_description"}` or into a redirect.
 */
export abstract class OAuthError extends Error {
  abstract readonly code: string;
  readonly status: number = 400;
  readonly headers: Record<string, string> = {};

  constructor(description: string) {
    // RFC 6749 §5.2: error_description is limited to %x20-21 / %x23-5B / %x5D-7E.
    super(description.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, ' '));
  }

  get description(): string {
    return this.message;
  }
}

export class InvalidRequest extends OAuthError {
  readonly code = 'invalid_request';
}

export class InvalidClient extends OAuthError {
  readonly code = 'invalid_client';
  override readonly status = 401;
}

export class InvalidGrant extends OAuthError {
  readonly code = 'invalid_grant';
}

export class UnauthorizedClient extends OAuthError {
  readonly code = 'unauthorized_client';
}

export class UnsupportedGrantType extends OAuthError {
  readonly code = 'unsupported_grant_type';
}

export class UnsupportedResponseType extends OAuthError {
  readonly code = 'unsupported_response_type';
}

export class InvalidScope extends OAuthError {
  readonly code = 'invalid_scope';
}

export class InvalidTarget extends OAuthError {
  readonly code = 'invalid_target';
}

export class AccessDenied extends OAuthError {
  readonly code = 'access_denied';
}

/** Registration refused while both ways in are off (spec 5.2). */
export class RegistrationClosed extends AccessDenied {
  override readonly status = 403;
}

export class InvalidRedirectUri extends OAuthError {
  readonly code = 'invalid_redirect_uri';
}

export class InvalidClientMetadata extends OAuthError {
  readonly code = 'invalid_client_metadata';
}

export class SlowDown extends OAuthError {
  readonly code = 'slow_down';
  override readonly status = 429;

  constructor(description: string, retryAfterSeconds: number) {
    super(description);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

export class ServerError extends OAuthError {
  readonly code = 'server_error';
  override readonly status = 500;
}

/** What a client sees of an OAuth error: the code and description, nothing internal. */
export function oauthErrorBody(error: OAuthError): { error: string; error_description: string } {
  return { error: error.code, error_description: error.description };
}
