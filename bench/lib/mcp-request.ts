import type { BenchRequest } from '../scenarios/scenario.ts';

/** An MCP tools/call as one stateless JSON-RPC request to /mcp. */
export function mcpToolCall(tool: string, args: Record<string, unknown>): BenchRequest {
  return {
    method: 'POST',
    path: '/mcp',
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } },
  };
}
