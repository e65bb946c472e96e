import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';
import { findClient, type Client } from '../clients.ts';
import { isRegisteredRedirect } from './redirect-uri-match.ts';
import { single, type RawParameters } from './single-parameters.ts';

/** A problem with the client or redirect URI: shown to the member as a page, never a redirect (decision 1). */
export class NotRedirectable extends Error {}

function notRedirectable(name: string): Error {
  return new NotRedirectable(`The request names ${name} more than once.`);
}

/** The client and the redirect URI to answer to, both checked before anything is sent anywhere. */
export async function checkClientAndRedirect(db: Kysely<DB>, params: RawParameters): Promise<{ client: Client; redirectUri: string }> {
  const clientId = single(params, 'client_id', notRedirectable);
  const requested = single(params, 'redirect_uri', notRedirectable);
  if (clientId === undefined) throw new NotRedirectable('The request does not say which application is asking (client_id).');
  const client = await findClient(db, clientId);
  if (!client) throw new NotRedirectable('This application is not registered here (unknown client_id). It should register again.');
  if (requested === undefined) {
    const only = client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined;
    if (only === undefined || !isRegisteredRedirect(only, client.redirect_uris)) {
      throw new NotRedirectable(
        'The request must say where to return (redirect_uri), because the application registered several addresses.',
      );
    }
    return { client, redirectUri: only };
  }
  if (!isRegisteredRedirect(requested, client.redirect_uris)) {
    throw new NotRedirectable('The address to return to (redirect_uri) is not one this application registered.');
  }
  return { client, redirectUri: requested };
}
