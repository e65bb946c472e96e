import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request } from './mcp-client.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ rateLimit: 4 });
});
afterAll(async () => service.close());

describe('MCP switched off: 403 feature_disabled, and the MCP protected-resource metadata answers 404 (spec 4.8, 5.5)', () => {
  it('refuses a valid token while the MCP server is off and takes it again once on', async () => {
    const token = await service.token('ada@example.com', 'write', 'switch test');
    await setSwitch(service.db, 'mcp', false);
    try {
      const reply = await postMcp(service, request('ping'), { token });
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ error: { code: 'feature_disabled', message: expect.stringContaining('MCP server is switched off') } });
      const metadata = await service.request('GET', '/.well-known/oauth-protected-resource/mcp');
      expect(metadata.status).toBe(404);
      // The REST API is a separate way in (spec 5.2): the same token still works there.
      expect((await service.request('GET', '/api/v1/me', { token })).status).toBe(200);
    } finally {
      await setSwitch(service.db, 'mcp', true);
    }
    expect((await postMcp(service, request('ping'), { token })).status).toBe(200);
    expect((await service.request('GET', '/.well-known/oauth-protected-resource/mcp')).status).toBe(200);
  });

  it('still answers 401 to a request without a token while off', async () => {
    await setSwitch(service.db, 'mcp', false);
    try {
      expect((await postMcp(service, request('ping'), { token: null })).status).toBe(401);
    } finally {
      await setSwitch(service.db, 'mcp', true);
    }
  });
});

describe('rate limit: one budget per token across REST and MCP; past it 429 with Retry-After: 60 (spec 8)', () => {
  it('counts REST and MCP requests of one token together', async () => {
    const token = await service.token('lee@example.com', 'write', 'limit test');
    expect((await service.request('GET', '/api/v1/me', { token })).status).toBe(200);
    expect((await postMcp(service, request('ping'), { token })).status).toBe(200);
    expect((await service.request('GET', '/api/v1/me', { token })).status).toBe(200);
    const fourth = await postMcp(service, [request('ping'), request('tools/list')], { token });
    expect(fourth.status).toBe(200);
    expect(fourth.headers['ratelimit-remaining']).toBe('0');

    const refused = await postMcp(service, request('ping'), { token });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body).toMatchObject({ error: { code: 'rate_limited' } });
    expect((await service.request('GET', '/api/v1/me', { token })).status).toBe(429);

    // Another token has its own budget.
    const other = await service.token('lee@example.com', 'write', 'another agent');
    expect((await postMcp(service, request('ping'), { token: other })).status).toBe(200);
  });
});
