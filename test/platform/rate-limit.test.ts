import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

const LIMIT = 5;
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ rateLimit: LIMIT });
});

afterAll(async () => {
  await service?.close();
});

describe('rate limit: past the limit a token gets 429 rate_limited with Retry-After: 60 (spec 8)', () => {
  it('answers the first requests and refuses the next one', async () => {
    const token = await service.token('dev1@example.com', 'read');
    for (let i = 1; i <= LIMIT; i++) {
      const reply = await service.request('GET', '/api/v1/me', { token });
      expect(reply.status, `request ${i}`).toBe(200);
    }
    const refused = await service.request('GET', '/api/v1/projects', { token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
  });

  it('counts per token: another token of the same member is not affected', async () => {
    const first = await service.token('dev2@example.com', 'read', 'first');
    const second = await service.token('dev2@example.com', 'read', 'second');
    for (let i = 0; i <= LIMIT; i++) await service.request('GET', '/api/v1/me', { token: first });
    expect((await service.request('GET', '/api/v1/me', { token: first })).status).toBe(429);
    const other = await service.request('GET', '/api/v1/me', { token: second });
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('does not count requests without a valid token against anybody', async () => {
    const token = await service.token('vic@example.com', 'read');
    for (let i = 0; i < LIMIT * 2; i++) expect((await service.request('GET', '/api/v1/me', { token: 'svc_pat_nobody' })).status).toBe(401);
    expect((await service.request('GET', '/api/v1/me', { token })).status).toBe(200);
  });
});

describe('rate limit: RateLimit-Limit, -Remaining and -Reset on every authenticated answer', () => {
  it('counts down with each request and says when the window resets', async () => {
    const token = await service.token('lee@example.com', 'write');
    const remaining: string[] = [];
    for (const path of ['/api/v1/me', '/api/v1/projects', '/api/v1/projects/CORE', '/api/v1/projects/NOPE']) {
      const reply = await service.request('GET', path, { token });
      expect(reply.headers['ratelimit-limit'], path).toBe(String(LIMIT));
      const reset = Number(reply.headers['ratelimit-reset']);
      expect(reset, path).toBeGreaterThanOrEqual(1);
      expect(reset, path).toBeLessThanOrEqual(60);
      remaining.push(String(reply.headers['ratelimit-remaining']));
      expect(reply.headers['retry-after'], path).toBeUndefined();
    }
    // The unknown project (404) is an authenticated answer too.
    expect(remaining).toEqual(['4', '3', '2', '1']);
  });

  it('lets the browser read them from another origin', async () => {
    const token = await service.token('lee@example.com', 'read', 'cors');
    const reply = await service.request('GET', '/api/v1/me', { token, headers: { origin: 'https://app.example.org' } });
    const exposed = String(reply.headers['access-control-expose-headers']).toLowerCase();
    for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) expect(exposed).toContain(header);
  });
});
