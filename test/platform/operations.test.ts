import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/config.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// ADR 0017: what an operator watches — liveness, readiness, Prometheus metrics.

const METRICS_TOKEN = 'scrape-me-0123456789abcdef';
let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService({ metricsToken: METRICS_TOKEN });
  token = await service.token('lee@example.com');
});
afterAll(() => service.close());

describe('operations: /healthz says the process is up, /readyz that it can serve', () => {
  it('answers both without a token', async () => {
    const health = await service.request('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await service.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.live_events).toBe('on');
  });

  it('is not ready on a database that has not been migrated, and says why', async () => {
    const database = await openDatabase({ engine: 'pglite', memory: true });
    const app = await buildApp({ config: { publicUrl: 'http://localhost:8080', logLevel: 'silent' }, database });
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().reason).toMatch(/^migrations not run yet: 0001-platform/);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('operations: Prometheus metrics at /metrics, behind METRICS_TOKEN', () => {
  it('counts requests by door, operation and status, and the database pool', async () => {
    await service.request('GET', '/api/v1/me', { token });
    await service.request('GET', '/api/v1/projects/NOPE', { token });
    const reply = await service.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/plain/);
    expect(reply.text).toMatch(/atrium_requests_total\{door="rest",operation="whoami",status="200"\} 1/);
    expect(reply.text).toMatch(/atrium_requests_total\{door="rest",operation="describe_project",status="404"\} 1/);
    expect(reply.text).toMatch(/atrium_request_duration_seconds_bucket\{le="[\d.]+",door="rest",operation="whoami"\}/);
    expect(reply.text).toMatch(/atrium_database_pool_connections\{state="total"\} \d+/);
    expect(reply.text).toMatch(/atrium_database_queries_total \d+/);
    expect(reply.text).toMatch(/atrium_process_resident_memory_bytes \d+/);
  });

  it('never labels a member, a token or a path parameter', async () => {
    const reply = await service.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(reply.text).not.toContain(token);
    expect(reply.text).not.toContain('NOPE');
    expect(reply.text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/);
  });

  it('refuses a scraper without the token, or with another one', async () => {
    expect((await service.request('GET', '/metrics')).status).toBe(401);
    expect((await service.request('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-0000000000' } })).status).toBe(401);
    expect((await service.request('GET', '/metrics', { token })).status).toBe(401);
  });

  it('is closed (404) when no METRICS_TOKEN is set, and a short one is refused at start-up', async () => {
    const database = await openDatabase({ engine: 'pglite', memory: true });
    const app = await buildApp({ config: { publicUrl: 'http://localhost:8080', logLevel: 'silent' }, database });
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).statusCode).toBe(
        404,
      );
    } finally {
      await app.close();
      await database.close();
    }
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN: use at least 16 characters');
  });
});
