import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser as Chromium, Page } from 'playwright-core';
import { closeChromium, launchChromium } from './browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { exchange, me, pkce, registerClient, send, startListeningService } from '../oauth/support.ts';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);

let service: TestService;
let browser: Chromium;
let callback: http.Server;
let callbackPort = 0;
const received: URL[] = [];

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  service = await startListeningService();
  callback = http.createServer((request, response) => {
    received.push(new URL(request.url ?? '/', `http://127.0.0.1:${callbackPort}`));
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Agent</title><h1 id="done">The agent got its code</h1>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackPort = (callback.address() as AddressInfo).port;
  browser = await launchChromium();
});
afterAll(async () => {
  await closeChromium(browser);
  callback?.closeAllConnections();
  await new Promise((resolve) => callback?.close(resolve));
  await service?.close();
}, 90_000);

const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });

async function logIn(page: Page, email: string, password: string) {
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
}

describe('Chromium: a member connects an agent, read only', () => {
  it('logs in, sees the consent page, approves Read, and the callback receives the code', async () => {
    const client = await registerClient(service, { client_name: 'Browser Agent', redirect_uris: ['http://127.0.0.1/callback'] });
    const verifier = pkce();
    const redirectUri = `http://127.0.0.1:${callbackPort}/callback`;
    const url = new URL('/oauth/authorize', service.url);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: verifier.challenge,
      code_challenge_method: 'S256',
      scope: 'tickets:read',
      state: 'chromium-state',
    }).toString();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url.href);
    await shot(page, '01-login');
    await logIn(page, 'lee@example.com', 'lee-password');
    await page.waitForSelector('#client-name');
    expect(await page.textContent('#client-name')).toBe('Browser Agent');
    expect(await page.textContent('#return-host')).toBe(`127.0.0.1:${callbackPort}`);
    expect(await page.locator('input[name=access][value=write]').count()).toBe(0);
    await shot(page, '02-consent-read-only');
    await page.click('button[value=approve]');
    await page.waitForSelector('#done');
    await shot(page, '03-callback');
    const arrived = received.find((u) => u.pathname === '/callback')!;
    expect(arrived.searchParams.get('state')).toBe('chromium-state');
    expect(arrived.searchParams.get('iss')).toBe(service.url);
    const token = await exchange(service, { client, pkce: verifier, code: arrived.searchParams.get('code')!, redirectUri });
    expect(token.status).toBe(200);
    expect(token.json.scope).toBe('tickets:read');
    await context.close();
  });
});

describe('UI-8: the page policy does not block the redirect after the consent POST', () => {
  it('reaches an https callback after Allow', async () => {
    const client = await registerClient(service, { client_name: 'Web App', redirect_uris: ['https://app.example.org/cb'] });
    const context = await browser.newContext();
    await context.route('https://app.example.org/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>App</title><h1 id="app">App callback</h1>' }),
    );
    const page = await context.newPage();
    const url = new URL('/oauth/authorize', service.url);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      state: 'https-state',
    }).toString();
    await page.goto(url.href);
    await logIn(page, 'lee@example.com', 'lee-password');
    await page.waitForSelector('#client-name');
    expect(await page.locator('input[name=access][value=write]').count()).toBe(1);
    await page.click('button[value=approve]');
    await page.waitForSelector('#app');
    const landed = new URL(page.url());
    expect(landed.origin + landed.pathname).toBe('https://app.example.org/cb');
    expect(landed.searchParams.get('code')).toBeTruthy();
    expect(landed.searchParams.get('state')).toBe('https-state');
    await context.close();
  });
});

describe('Chromium: the AI agents page', () => {
  it('creates a personal token shown once, then revokes it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(new URL('/agents', service.url).href);
    await logIn(page, 'lee@example.com', 'lee-password');
    await page.waitForSelector('h1:has-text("AI agents")');
    await page.fill('input[name=name]', 'Chromium bot');
    await page.selectOption('select[name=access]', 'write');
    await page.selectOption('select[name=lifetime]', '30');
    await page.click('button:has-text("Create token")');
    const secret = (await page.textContent('#new-token'))!.trim();
    expect(secret).toMatch(/^svc_pat_/);
    await shot(page, '04-agents-token-created');
    expect((await me(service, secret)).json.agent).toEqual({ name: 'Chromium bot', access: 'write' });
    const created = await send(service, 'POST', '/api/v1/tickets', {
      headers: { authorization: `Bearer ${secret}` },
      json: { project: 'CORE', summary: 'Filed from Chromium' },
    });
    expect(created.status).toBe(201);

    await page.goto(new URL('/agents', service.url).href);
    expect(await page.locator('#new-token').count()).toBe(0);
    await page.click('tr[data-token="Chromium bot"] button:has-text("Revoke")');
    await page.waitForSelector('h1:has-text("AI agents")');
    expect(await page.locator('tr[data-token="Chromium bot"]').count()).toBe(0);
    await shot(page, '05-agents-token-revoked');
    expect((await me(service, secret)).status).toBe(401);

    await page.goto(new URL('/agents/activity', service.url).href);
    expect(await page.locator('td.agent', { hasText: 'Chromium bot' }).count()).toBeGreaterThan(0);
    await shot(page, '06-what-my-agents-did');
    await page.goto(new URL(created.json.url).href);
    expect(await page.textContent('#ticket-key')).toBe(created.json.key);
    await shot(page, '07-ticket-page');
    await context.close();
  });
});

describe('Chromium: the administrator switches the MCP server off', () => {
  it('a token is then refused at /mcp and still works at /api/v1', async () => {
    const token = await service.token('lee@example.com', 'read', 'Switch check');
    const mcpCall = () =>
      fetch(new URL('/mcp', service.url), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await mcpCall()).status).toBe(200);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(new URL('/admin/settings', service.url).href);
    await logIn(page, 'ada@example.com', 'ada-password');
    await page.waitForSelector('h1:has-text("Workspace settings")');
    await page.uncheck('input[name=mcp]');
    await page.click('button:has-text("Save")');
    await page.waitForSelector('h1:has-text("Workspace settings")');
    expect(await page.isChecked('input[name=mcp]')).toBe(false);
    expect(await page.isChecked('input[name=rest_api]')).toBe(true);
    await shot(page, '08-settings-mcp-off');

    const refused = await mcpCall();
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('feature_disabled');
    expect((await me(service, token)).status).toBe(200);

    await page.check('input[name=mcp]');
    await page.click('button:has-text("Save")');
    await page.waitForSelector('h1:has-text("Workspace settings")');
    expect((await mcpCall()).status).toBe(200);
    await context.close();
  });
});
