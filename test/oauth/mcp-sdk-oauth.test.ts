import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { Browser, callbackParams, formFields, startListeningService } from './support.ts';

let service: TestService;

beforeAll(async () => {
  // As `npm start` runs it: PUBLIC_URL says localhost, the server listens on 127.0.0.1.
  service = await startListeningService({ publicHost: 'localhost' });
});

/** The same server under its loopback alias, the address the banner says it listens on. */
function aliasUrl(path: string): URL {
  const url = new URL(path, service.url);
  url.hostname = '127.0.0.1';
  return url;
}
afterAll(async () => service?.close());

/** What an agent keeps between runs, and where it sends the member's browser. */
class AgentProvider implements OAuthClientProvider {
  information?: OAuthClientInformationFull;
  stored?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly requests: string[] = [];

  get redirectUrl(): string {
    return 'http://127.0.0.1:33418/callback';
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK Agent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationFull) {
    this.information = information;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The member's browser: opens the URL the agent gave, logs in, allows. */
async function memberAllows(url: URL): Promise<string> {
  const browser = new Browser(service);
  const path = url.pathname + url.search;
  const login = await browser.get(path);
  await browser.post('/login', { ...formFields(login.text, '/login'), email: 'lee@example.com', password: 'lee-password' });
  const page = await browser.get(path);
  expect(page.status).toBe(200);
  const answer = await browser.post('/oauth/authorize', {
    ...formFields(page.text, '/oauth/authorize'),
    decision: 'approve',
    access: 'write',
  });
  const params = callbackParams(answer.location);
  expect(params.get('iss')).toBe(service.url);
  return params.get('code')!;
}

/** The SDK's whole first contact: 401 → discovery → registration, leaving the member's consent to give. */
async function firstContact(mcpUrl: URL) {
  const provider = new AgentProvider();
  const seen: string[] = [];
  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const response = await fetch(input, init);
    seen.push(`${init?.method ?? 'GET'} ${url.pathname} ${response.status}`);
    return response;
  };
  const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: fetchFn });
  await expect(client.connect(transport)).rejects.toThrow(/Unauthorized/i);
  expect(seen).toContain('POST /mcp 401');
  expect(seen).toContain('GET /.well-known/oauth-protected-resource/mcp 200');
  expect(seen).toContain('GET /.well-known/oauth-authorization-server 200');
  expect(seen).toContain('POST /oauth/register 201');
  expect(provider.information?.client_id).toMatch(/^svc_client_/);
  expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(mcpUrl.href);
  expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
  return { provider, transport, seen, fetchFn };
}

describe('the official MCP SDK client connects to /mcp by URL alone through OAuth', () => {
  it('401 → resource metadata → AS metadata → registration → authorize → token → tools/list → refresh', async () => {
    const mcpUrl = new URL(`${service.url}/mcp`);
    const { provider, transport, seen, fetchFn } = await firstContact(mcpUrl);

    const code = await memberAllows(provider.authorizationUrl!);
    await transport.finishAuth(code);
    expect(seen).toContain('POST /oauth/token 200');
    expect(provider.stored?.access_token).toMatch(/^svc_oat_/);

    const connected = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: fetchFn }));
    const tools = await connected.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('whoami');
    const whoami = await connected.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.stringify(whoami.structuredContent)).toContain('SDK Agent');
    await connected.close();

    const before = provider.stored!;
    expect(await auth(provider, { serverUrl: mcpUrl, fetchFn })).toBe('AUTHORIZED');
    expect(provider.stored!.access_token).not.toBe(before.access_token);
    expect(provider.stored!.refresh_token).not.toBe(before.refresh_token);
    const old = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${before.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(old.status).toBe(401);
    const again = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: fetchFn }));
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);
    await again.close();
  });
});

describe('a loopback alias of PUBLIC_URL is the same server (127.0.0.1 for localhost)', () => {
  it('the SDK client given http://127.0.0.1:PORT/mcp completes OAuth and calls a tool', async () => {
    const mcpUrl = aliasUrl('/mcp');
    const { provider, transport } = await firstContact(mcpUrl);
    await transport.finishAuth(await memberAllows(provider.authorizationUrl!));
    expect(provider.stored?.access_token).toMatch(/^svc_oat_/);
    const connected = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const whoami = await connected.callTool({ name: 'whoami', arguments: {} });
    expect(whoami.isError).toBeFalsy();
    await connected.close();
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
  });

  it('the metadata names the resource as the client wrote it, and the authorization server as PUBLIC_URL', async () => {
    const metadata = await (await fetch(aliasUrl('/.well-known/oauth-protected-resource/mcp'))).json();
    expect(metadata.resource).toBe(aliasUrl('/mcp').href);
    expect(metadata.authorization_servers).toEqual([service.url]);
    const challenge = (await fetch(aliasUrl('/mcp'), { method: 'POST' })).headers.get('www-authenticate');
    expect(challenge).toContain(`resource_metadata="${aliasUrl('/.well-known/oauth-protected-resource/mcp').href}"`);
  });

  it('a host that is not a loopback alias gets PUBLIC_URL in the metadata', async () => {
    const answer = await service.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource/mcp',
      headers: { host: 'evil.example:80' },
    });
    expect(answer.json().resource).toBe(`${service.url}/mcp`);
    const rest = await service.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-protected-resource',
      headers: { host: '127.0.0.1:1' },
    });
    expect(rest.json().resource).toBe(service.url);
  });
});
