import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/modules/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request } from '../mcp/mcp-client.ts';

// A workflow's screens are drawn by the browser: list_transition_screens is a web-only operation,
// absent from the OpenAPI document and from MCP tools/list.

let service: TestService;
let adminWrite: string;

beforeAll(async () => {
  service = await startTestService();
  adminWrite = await service.token('ada@example.com', 'write');
});
afterAll(async () => service?.close());

describe('the transition screens are read by the pages alone', () => {
  it('declares list_transition_screens for the web door only', () => {
    expect(registry.webOnly.map((op) => op.name)).toContain('list_transition_screens');
    expect(registry.operations.map((op) => op.name)).not.toContain('list_transition_screens');
  });

  it('leaves it out of the OpenAPI document and out of tools/list', async () => {
    const openapi = await service.request('GET', '/api/v1/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.text).not.toContain('list_transition_screens');
    const tools = await postMcp(service, request('tools/list'), { token: adminWrite });
    expect((tools.body.result.tools as { name: string }[]).map((tool) => tool.name)).not.toContain('list_transition_screens');
  });
});
