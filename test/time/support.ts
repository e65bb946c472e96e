import { expect } from 'vitest';
import { startTestService, type Reply, type TestService } from '../helpers/service.ts';

export interface Clock {
  at: Date;
}

export interface TimeTokens {
  lee: string;
  dev1: string;
  vic: string;
  olga: string;
  ada: string;
  leeRead: string;
}

export async function startTime(): Promise<{ service: TestService; t: TimeTokens; clock: Clock }> {
  const clock: Clock = { at: new Date('2026-11-10T10:00:00Z') };
  const service = await startTestService({ workspace: 'time-workspace.yaml', now: () => clock.at });
  const t: TimeTokens = {
    lee: await service.token('lee@example.com', 'write', 'Lee agent'),
    dev1: await service.token('dev1@example.com', 'write', 'Dev agent'),
    vic: await service.token('vic@example.com', 'write'),
    olga: await service.token('olga@example.com', 'write'),
    ada: await service.token('ada@example.com', 'write'),
    leeRead: await service.token('lee@example.com', 'read'),
  };
  return { service, t, clock };
}

export function api(service: TestService) {
  return (token: string, method: string, path: string, body?: unknown): Promise<Reply> =>
    service.request(method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });
}

/** What a member's activities are, as the API lists them: a refused request must leave them alone. */
export async function activitiesOf(service: TestService, token: string): Promise<unknown> {
  const reply = await service.request('GET', '/api/v1/activities?limit=100', { token });
  expect(reply.status).toBe(200);
  return reply.body.activities;
}

export { callTool } from '../mcp/mcp-client.ts';
