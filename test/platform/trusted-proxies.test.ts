import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { send } from '../oauth/support.ts';

const PROXY = '10.9.0.1';
const register = (service: TestService, address: string, forwardedFor?: string) =>
  send(service, 'POST', '/oauth/register', {
    json: { redirect_uris: ['https://a.example/cb'] },
    address,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

async function exhaust(service: TestService, address: string, forwardedFor?: string) {
  for (let i = 0; i < 30; i++) expect((await register(service, address, forwardedFor)).status).toBe(201);
  expect((await register(service, address, forwardedFor)).status).toBe(429);
}

describe('TRUSTED_PROXIES: per-address limits count the client a named proxy forwards for', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ trustedProxies: [PROXY, '10.8.0.0/16'] });
  });
  afterAll(() => service.close());

  it('counts each client behind the proxy on its own', async () => {
    await exhaust(service, PROXY, '203.0.113.5');
    expect((await register(service, PROXY, '203.0.113.6')).status).toBe(201);
  });

  it('accepts a proxy named by its range', async () => {
    await exhaust(service, '10.8.3.4', '203.0.113.7');
    expect((await register(service, '10.8.3.4', '203.0.113.8')).status).toBe(201);
  });

  it('ignores X-Forwarded-For from anyone else, so a client cannot choose its own address', async () => {
    const client = '198.51.100.20';
    for (let i = 0; i < 30; i++) expect((await register(service, client, `192.0.2.${i}`)).status).toBe(201);
    expect((await register(service, client, '192.0.2.200')).status).toBe(429);
  });
});

describe('TRUSTED_PROXIES: left empty, no forwarded address is believed', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('counts the connection address whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < 30; i++) expect((await register(service, PROXY, `192.0.2.${i}`)).status).toBe(201);
    expect((await register(service, PROXY, '192.0.2.200')).status).toBe(429);
  });
});
