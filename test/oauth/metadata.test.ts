import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { send } from './support.ts';

const W = 'https://acme.example.test';
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ publicUrl: W });
});
afterAll(async () => service?.close());

describe('META-1: authorization server metadata is complete and self-consistent', () => {
  it('answers exactly the fields of spec 5.2, S256 only, iss supported', async () => {
    const response = await send(service, 'GET', '/.well-known/oauth-authorization-server');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json).toMatchObject({
      issuer: W,
      authorization_endpoint: `${W}/oauth/authorize`,
      token_endpoint: `${W}/oauth/token`,
      registration_endpoint: `${W}/oauth/register`,
      revocation_endpoint: `${W}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      scopes_supported: ['tickets:read', 'tickets:write'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(response.text).not.toMatch(/plain|implicit|password/);
  });

  it('is accepted by oauth4webapi.processDiscoveryResponse', async () => {
    const response = await send(service, 'GET', '/.well-known/oauth-authorization-server');
    const as = await oauth.processDiscoveryResponse(
      new URL(W),
      new Response(response.text, { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    expect(as.issuer).toBe(W);
  });
});

describe('META-2: the issuer is not taken from request headers', () => {
  it('ignores Host and X-Forwarded-Host', async () => {
    const attempts: Record<string, string>[] = [{ host: 'evil.test' }, { 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' }];
    for (const headers of attempts) {
      const response = await send(service, 'GET', '/.well-known/oauth-authorization-server', { headers });
      expect(response.text).not.toContain('evil.test');
      expect(response.json.issuer).toBe(W);
    }
  });
});

describe('META-5: no OIDC discovery', () => {
  it('answers 404 at openid-configuration', async () => {
    expect((await send(service, 'GET', '/.well-known/openid-configuration')).status).toBe(404);
  });
});

describe('spec 4.10: discovery and token endpoints answer any origin, set no cookie', () => {
  it('allows any origin on the metadata and the preflight of /oauth/token', async () => {
    const metadata = await send(service, 'GET', '/.well-known/oauth-authorization-server', {
      headers: { origin: 'https://agent.example' },
    });
    expect(metadata.headers['access-control-allow-origin']).toBe('*');
    const preflight = await send(service, 'OPTIONS', '/oauth/token', {
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
