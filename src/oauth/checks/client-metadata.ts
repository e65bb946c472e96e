import { InvalidClientMetadata, InvalidRedirectUri } from '../errors.ts';
import { parseScope, scopeFor } from '../scope.ts';
import type { ClientAuthMethod } from '../tables.ts';
import { redirectUriProblem } from './redirect-uri-shape.ts';

export const MAX_CLIENT_NAME = 100;
export const MAX_REDIRECT_URIS = 10;
const AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_post', 'client_secret_basic'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
/** Optional metadata kept and echoed as given (spec 5.2). */
const KEPT_STRINGS = ['client_uri', 'logo_uri', 'software_id', 'software_version'] as const;

export interface ClientMetadata {
  client_name?: string;
  redirect_uris: string[];
  token_endpoint_auth_method: ClientAuthMethod;
  grant_types: string[];
  response_types: string[];
  scope: string;
  client_uri?: string;
  logo_uri?: string;
  software_id?: string;
  software_version?: string;
}

function optionalString(body: Record<string, unknown>, name: string, max: number): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidClientMetadata(`${name} must be a string`);
  if (value.length > max) throw new InvalidClientMetadata(`${name} must be at most ${max} characters`);
  // Names are shown on the consent page, so no control or bidi characters.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is refused
  if (/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(value)) {
    throw new InvalidClientMetadata(`${name} must not contain control characters`);
  }
  return value;
}

function stringList(body: Record<string, unknown>, name: string, allowed: readonly string[], fallback: string[]): string[] {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (!Array.isArray(value) || value.length === 0 || value.some((item) => typeof item !== 'string' || !allowed.includes(item))) {
    throw new InvalidClientMetadata(`${name} must be a list drawn from ${allowed.join(', ')}`);
  }
  return [...new Set(value as string[])];
}

function redirectUris(body: Record<string, unknown>): string[] {
  const value = body.redirect_uris;
  if (!Array.isArray(value)) throw new InvalidRedirectUri('redirect_uris must be a list of 1 to 10 addresses');
  if (value.length < 1 || value.length > MAX_REDIRECT_URIS) {
    throw new InvalidRedirectUri(`redirect_uris must hold 1 to ${MAX_REDIRECT_URIS} addresses`);
  }
  value.forEach((uri, index) => {
    const problem = redirectUriProblem(uri);
    if (problem) throw new InvalidRedirectUri(`redirect_uris[${index}] ${problem}`);
  });
  return [...new Set(value as string[])];
}

/** Registration metadata (RFC 7591 and spec 5.2); unknown fields such as application_type are accepted and ignored. */
export function checkClientMetadata(body: unknown): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidClientMetadata('the body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const uris = redirectUris(fields);
  const method = fields.token_endpoint_auth_method ?? 'none';
  if (typeof method !== 'string' || !(AUTH_METHODS as readonly string[]).includes(method)) {
    throw new InvalidClientMetadata(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  }
  const grantTypes = stringList(fields, 'grant_types', GRANT_TYPES, [...GRANT_TYPES]);
  if (!grantTypes.includes('authorization_code')) throw new InvalidClientMetadata('grant_types must include authorization_code');
  const responseTypes = stringList(fields, 'response_types', ['code'], ['code']);
  const rawScope = fields.scope;
  let scope = scopeFor('write');
  if (rawScope !== undefined && rawScope !== null) {
    const access = typeof rawScope === 'string' ? parseScope(rawScope) : null;
    if (!access) throw new InvalidClientMetadata('scope must be tickets:read, or tickets:read tickets:write');
    scope = scopeFor(access);
  }
  const metadata: ClientMetadata = {
    redirect_uris: uris,
    token_endpoint_auth_method: method as ClientAuthMethod,
    grant_types: grantTypes,
    response_types: responseTypes,
    scope,
  };
  const name = optionalString(fields, 'client_name', MAX_CLIENT_NAME);
  if (name !== undefined) metadata.client_name = name;
  for (const key of KEPT_STRINGS) {
    const value = optionalString(fields, key, key.endsWith('uri') ? 2000 : 200);
    if (value !== undefined) metadata[key] = value;
  }
  for (const key of ['client_uri', 'logo_uri'] as const) {
    const value = metadata[key];
    if (value !== undefined && !/^https:\/\/[\x21-\x7e]+$/.test(value)) throw new InvalidClientMetadata(`${key} must be an https address`);
  }
  return metadata;
}
