import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Reply, TestService } from '../helpers/service.ts';

/** The official SDK client over Streamable HTTP with a bearer token, as an agent connects. */
export async function connectClient(
  service: TestService,
  token: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'atrium-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

export interface PostOptions {
  token?: string | null;
  /** The MCP-Protocol-Version header; null sends none. */
  version?: string | null;
  headers?: Record<string, string>;
}

/** A raw POST to /mcp, for what the SDK client cannot send. */
export function postMcp(service: TestService, body: unknown, options: PostOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream', ...options.headers };
  const version = options.version === undefined ? '2025-11-25' : options.version;
  if (version !== null) headers['mcp-protocol-version'] = version;
  return service.request('POST', '/mcp', { token: options.token, body, headers });
}

let nextId = 1;
export const request = (method: string, params?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method,
  ...(params ? { params } : {}),
});
export const notification = (method: string) => ({ jsonrpc: '2.0', method });
export const initializeParams = (protocolVersion: string) => ({
  protocolVersion,
  capabilities: {},
  clientInfo: { name: 'raw-test', version: '1.0.0' },
});

/** A tools/call through /mcp, checked to be answered (200); the result as a client sees it. */
export async function callTool(service: TestService, token: string, name: string, args: Record<string, unknown>) {
  const reply = await postMcp(service, request('tools/call', { name, arguments: args }), { token });
  expect(reply.status, reply.text).toBe(200);
  // a tool result's structuredContent is whatever its operation answers
  return reply.body.result as { isError: boolean; structuredContent?: any; content: { text: string }[] };
}
