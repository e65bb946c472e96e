import type { Kysely } from 'kysely';
import { hashSecret, sameHash } from '../auth/token-format.ts';
import type { DB } from '../storage/schema.ts';
import { single, type RawParameters } from './checks/single-parameters.ts';
import { findClient, type Client } from './clients.ts';
import { InvalidClient, InvalidRequest } from './errors.ts';
import type { ClientAuthMethod } from './tables.ts';

interface Presented {
  clientId: string | undefined;
  secret: string | undefined;
  method: ClientAuthMethod;
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/** `Authorization: Basic` with form-encoded id and secret (RFC 6749 §2.3.1). */
function basicCredentials(authorization: string): { clientId: string; secret: string } {
  const encoded = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(authorization)?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidBasic('The Basic credentials are malformed');
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw invalidBasic('The Basic credentials are malformed');
  }
}

function invalidBasic(description: string): InvalidClient {
  const error = new InvalidClient(description);
  error.headers['WWW-Authenticate'] = 'Basic realm="atrium"';
  return error;
}

function presented(authorization: string | undefined, params: RawParameters): Presented {
  const bodyId = single(params, 'client_id');
  const bodySecret = single(params, 'client_secret');
  if (authorization && /^Basic /i.test(authorization)) {
    if (bodySecret !== undefined) throw new InvalidRequest('Use one client authentication method, not Basic and client_secret together');
    const basic = basicCredentials(authorization);
    if (bodyId !== undefined && bodyId !== basic.clientId) throw new InvalidRequest('client_id differs from the Basic credentials');
    return { clientId: basic.clientId, secret: basic.secret, method: 'client_secret_basic' };
  }
  return { clientId: bodyId, secret: bodySecret, method: bodySecret === undefined ? 'none' : 'client_secret_post' };
}

/**
 * Identifies and authenticates the client of a token or revocation request: public clients name
 * themselves, confidential ones prove it with the method they registered (401 invalid_client).
 */
export async function authenticateClient(db: Kysely<DB>, authorization: string | undefined, params: RawParameters): Promise<Client> {
  const given = presented(authorization, params);
  const fail = (description: string) =>
    given.method === 'client_secret_basic' ? invalidBasic(description) : new InvalidClient(description);
  if (given.clientId === undefined) throw fail('client_id is required');
  const client = await findClient(db, given.clientId);
  if (!client) throw fail('Unknown client; register again');
  if (client.token_endpoint_auth_method !== given.method) {
    throw fail(`This client authenticates with ${client.token_endpoint_auth_method}`);
  }
  if (client.secret_hash !== null && (given.secret === undefined || !sameHash(client.secret_hash, hashSecret(given.secret)))) {
    throw fail('Client authentication failed');
  }
  return client;
}
