import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { startTestService, type StartOptions, type TestService } from '../helpers/service.ts';

/** A free local port, so the service can be told its own address (PUBLIC_URL) before it listens. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A service listening on a real port whose PUBLIC_URL is that very address, so real clients
 * (oauth4webapi, the MCP SDK, Chromium) see an issuer that matches where they connect.
 */
export async function startListeningService(
  options: Omit<StartOptions, 'listen' | 'publicUrl'> & { publicHost?: string } = {},
): Promise<TestService> {
  const port = await freePort();
  const publicUrl = `http://${options.publicHost ?? '127.0.0.1'}:${port}`;
  const service = await startTestService({ ...options, publicUrl });
  await service.app.listen({ port, host: '127.0.0.1' });
  return { ...service, url: publicUrl };
}

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  json: any;
  location: string | undefined;
}

let addressCounter = 1;
/** A distinct client address per caller, so per-address limits only bite where a test means them to. */
export function newAddress(): string {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

export interface SendOptions {
  headers?: Record<string, string>;
  form?: Record<string, string | string[]>;
  json?: unknown;
  body?: string;
  address?: string;
}

/** One request through Fastify's inject, as a client at `address` would make it. */
export async function send(service: TestService, method: string, url: string, options: SendOptions = {}): Promise<Exchange> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined = options.body;
  if (options.form) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.form)) for (const item of [value].flat()) params.append(key, item);
    payload = params.toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await service.app.inject({
    method: method as 'GET',
    url,
    headers,
    payload,
    remoteAddress: options.address ?? newAddress(),
  });
  let json: unknown;
  try {
    json = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    json = undefined;
  }
  const location = response.headers.location;
  return {
    status: response.statusCode,
    headers: response.headers,
    text: response.body,
    json,
    location: typeof location === 'string' ? location : undefined,
  };
}

/** The Set-Cookie lines of an answer. */
export function setCookieLines(response: Exchange): string[] {
  return [response.headers['set-cookie'] ?? []].flat().map(String);
}

/** A browser: keeps cookies between requests, follows nothing by itself. */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly address = newAddress();

  private readonly service: TestService;

  constructor(service: TestService) {
    this.service = service;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(method: string, url: string, options: SendOptions = {}): Promise<Exchange> {
    const headers = { ...options.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    const response = await send(this.service, method, url, { ...options, headers, address: options.address ?? this.address });
    const setCookies = setCookieLines(response);
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim()));
      if (!name) continue;
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return response;
  }

  get(url: string, options: SendOptions = {}): Promise<Exchange> {
    return this.request('GET', url, options);
  }

  post(url: string, form: Record<string, string>, options: SendOptions = {}): Promise<Exchange> {
    return this.request('POST', url, { ...options, form });
  }

  /** Logs in through the form of whatever page `url` shows; returns the answer to the POST. */
  async logIn(email: string, password: string, url = '/login'): Promise<Exchange> {
    const page = await this.get(url);
    const form = formFields(page.text, '/login');
    return this.post('/login', { ...form, email, password });
  }
}

/** The hidden and pre-filled fields of the first form posting to `action`. */
export function formFields(page: string, action: string): Record<string, string> {
  const start = page.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action} in:\n${page.slice(0, 2000)}`);
  const form = page.slice(start, page.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]!] = decodeEntities(match[2]!);
  }
  return fields;
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface RegisteredTestClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

export async function registerClient(service: TestService, metadata: Record<string, unknown> = {}): Promise<RegisteredTestClient> {
  const response = await send(service, 'POST', '/oauth/register', {
    json: { client_name: 'Test agent', redirect_uris: ['http://127.0.0.1/callback'], ...metadata },
  });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${response.text}`);
  return response.json as RegisteredTestClient;
}

export interface AuthorizeOptions {
  client: RegisteredTestClient;
  pkce?: Pkce;
  redirectUri?: string;
  scope?: string;
  state?: string;
  resource?: string;
  extra?: Record<string, string>;
}

export function authorizeUrl(options: AuthorizeOptions): string {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: options.client.client_id,
    redirect_uri: options.redirectUri ?? options.client.redirect_uris[0]!,
    code_challenge: (options.pkce ?? pkce()).challenge,
    code_challenge_method: 'S256',
  });
  if (options.scope !== undefined) params.set('scope', options.scope);
  if (options.state !== undefined) params.set('state', options.state);
  if (options.resource !== undefined) params.set('resource', options.resource);
  for (const [key, value] of Object.entries(options.extra ?? {})) params.set(key, value);
  return `/oauth/authorize?${params.toString()}`;
}

/** Opens the consent page for an authorization request and answers it; returns the redirect. */
export async function consent(
  browser: Browser,
  url: string,
  decision: 'approve' | 'deny' = 'approve',
  access: 'read' | 'write' = 'write',
): Promise<Exchange> {
  const page = await browser.get(url);
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${page.location ?? page.text.slice(0, 500)}`);
  const fields = formFields(page.text, '/oauth/authorize');
  return browser.post('/oauth/authorize', { ...fields, decision, access });
}

/** The parameters of an authorization response (the query of the redirect). */
export function callbackParams(location: string | undefined): URLSearchParams {
  if (!location) throw new Error('no redirect');
  return new URL(location).searchParams;
}

export const PASSWORDS = {
  lee: ['lee@example.com', 'lee-password'],
  ada: ['ada@example.com', 'ada-password'],
  dev2: ['dev2@example.com', 'dev2-password'],
} as const;

const FIXTURE = new URL('../fixtures/workspace.yaml', import.meta.url);
const DEV_TWO = '{ name: Dev Two, email: dev2@example.com }';

/** The platform fixture, with a password for Dev Two (who can then log in) and optionally deactivated. */
export function workspaceWithDevTwo(active = true): string {
  const text = fs.readFileSync(FIXTURE, 'utf8');
  if (!text.includes(DEV_TWO)) throw new Error('the fixture no longer lists Dev Two as expected');
  return text.replace(DEV_TWO, `{ name: Dev Two, email: dev2@example.com, password: dev2-password, active: ${active} }`);
}

/** A logged-in member's browser. */
export async function loggedIn(service: TestService, who: keyof typeof PASSWORDS = 'lee'): Promise<Browser> {
  const browser = new Browser(service);
  const [email, password] = PASSWORDS[who];
  const answer = await browser.logIn(email, password);
  if (answer.status !== 303) throw new Error(`log-in failed: ${answer.status} ${answer.text.slice(0, 300)}`);
  return browser;
}

export interface CodeFlow {
  client: RegisteredTestClient;
  pkce: Pkce;
  code: string;
  redirectUri: string;
}

/** Registers (unless given) a client, logs in, consents, and returns the code. */
export async function obtainCode(
  service: TestService,
  options: Partial<AuthorizeOptions> & { browser?: Browser; access?: 'read' | 'write' } = {},
): Promise<CodeFlow> {
  const client = options.client ?? (await registerClient(service));
  const verifier = options.pkce ?? pkce();
  const browser = options.browser ?? (await loggedIn(service));
  const redirect = await consent(browser, authorizeUrl({ ...options, client, pkce: verifier }), 'approve', options.access ?? 'write');
  const code = callbackParams(redirect.location).get('code');
  if (!code) throw new Error(`no code in ${redirect.location}`);
  return { client, pkce: verifier, code, redirectUri: options.redirectUri ?? client.redirect_uris[0]! };
}

export async function exchange(
  service: TestService,
  flow: CodeFlow,
  extra: Record<string, string> = {},
  options: SendOptions = {},
): Promise<Exchange> {
  return send(service, 'POST', '/oauth/token', {
    ...options,
    form: {
      grant_type: 'authorization_code',
      code: flow.code,
      code_verifier: flow.pkce.verifier,
      client_id: flow.client.client_id,
      redirect_uri: flow.redirectUri,
      ...extra,
    },
  });
}

export async function refreshWith(
  service: TestService,
  client: RegisteredTestClient,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<Exchange> {
  return send(service, 'POST', '/oauth/token', {
    form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.client_id, ...extra },
  });
}

/** GET /api/v1/me with a bearer token: the status says whether the token works. */
export async function me(service: TestService, token: string): Promise<Exchange> {
  return send(service, 'GET', '/api/v1/me', { headers: { authorization: `Bearer ${token}` } });
}
