import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { Browser, formFields, startListeningService } from './support.ts';

// oauth4webapi is a real client: it speaks HTTP to a listening service, on plain http because
// the test server is on loopback.
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let service: TestService;
let as: oauth.AuthorizationServer;
let issuer: URL;

beforeAll(async () => {
  service = await startListeningService();
  issuer = new URL(service.url);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
});
afterAll(async () => service?.close());

/** The member's part, done as a browser does it: open the authorize URL, log in, consent. */
async function memberApproves(authorizationUrl: URL, access: 'read' | 'write' = 'write'): Promise<URL> {
  const browser = new Browser(service);
  const path = authorizationUrl.pathname + authorizationUrl.search;
  const loginPage = await browser.get(path);
  expect(loginPage.status).toBe(200);
  const loggedIn = await browser.post('/login', {
    ...formFields(loginPage.text, '/login'),
    email: 'lee@example.com',
    password: 'lee-password',
  });
  expect(loggedIn.status).toBe(303);
  expect(loggedIn.location).toBe(path);
  const consentPage = await browser.get(path);
  expect(consentPage.status).toBe(200);
  const answer = await browser.post('/oauth/authorize', {
    ...formFields(consentPage.text, '/oauth/authorize'),
    decision: 'approve',
    access,
  });
  expect(answer.status).toBe(303);
  return new URL(answer.location!);
}

async function api(token: string, path = '/api/v1/me'): Promise<Response> {
  return fetch(new URL(path, service.url), { headers: { authorization: `Bearer ${token}` } });
}

async function connect(client: oauth.Client, auth: oauth.ClientAuth, redirectUri: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope: 'tickets:read tickets:write',
    state,
  }).toString();
  const callback = await memberApproves(url);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

describe('oauth4webapi: discovery → registration → authorize → code → API → refresh → revoke', () => {
  it('connects a public client end to end', async () => {
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: 'Claude Test', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' },
        insecure,
      ),
    );
    expect(registered.client_id).toMatch(/^svc_client_/);
    expect(registered.client_secret).toBeUndefined();
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };

    const first = await connect(client, oauth.None(), 'http://127.0.0.1:53682/callback');
    expect(first.access_token).toMatch(/^svc_oat_/);
    expect(first.refresh_token).toMatch(/^svc_ort_/);
    expect(first.expires_in).toBe(3600);
    expect(first.scope).toBe('tickets:read tickets:write');

    const meResponse = await api(first.access_token);
    expect(meResponse.status).toBe(200);
    expect(await meResponse.json()).toMatchObject({ user: { name: 'Lee Lead' }, agent: { name: 'Claude Test', access: 'write' } });

    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure),
    );
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await api(first.access_token)).status).toBe(401);
    expect((await api(second.access_token)).status).toBe(200);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), second.refresh_token!, insecure));
    expect((await api(second.access_token)).status).toBe(401);
    const afterRevoke = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), second.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, client, afterRevoke)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
    it(`connects a confidential client authenticating with ${method}`, async () => {
      const registered = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(
          as,
          { client_name: `Server app ${method}`, redirect_uris: ['https://app.example.org/cb'], token_endpoint_auth_method: method },
          insecure,
        ),
      );
      expect(registered.client_secret).toMatch(/^svc_cs_/);
      expect(registered.client_secret_expires_at).toBe(0);
      const secret = registered.client_secret as string;
      const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: method };
      const auth = method === 'client_secret_basic' ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret);
      const tokens = await connect(client, auth, 'https://app.example.org/cb');
      expect((await api(tokens.access_token)).status).toBe(200);
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
      );
      expect((await api(refreshed.access_token)).status).toBe(200);
      const wrong = method === 'client_secret_basic' ? oauth.ClientSecretBasic('svc_cs_wrong') : oauth.ClientSecretPost('svc_cs_wrong');
      const refused = await oauth.refreshTokenGrantRequest(as, client, wrong, refreshed.refresh_token!, insecure);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, refreshed.access_token, insecure));
      expect((await api(refreshed.access_token)).status).toBe(401);
    });
  }
});
