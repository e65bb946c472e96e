import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/modules/index.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { connectClient } from './mcp-client.ts';
import { arrangeTicket, samplesFor } from './samples.ts';

let service: TestService;
let writeToken: string;
let readToken: string;
let write: { client: Client; transport: StreamableHTTPClientTransport };
let read: { client: Client; transport: StreamableHTTPClientTransport };

const toolOperations = registry.operations.filter((op) => op.tool !== null);

beforeAll(async () => {
  service = await startTestService({ listen: true });
  writeToken = await service.token('lee@example.com', 'write');
  readToken = await service.token('lee@example.com', 'read');
  await arrangeTicket(service.request, writeToken, registry.byTool.has('create_ticket'));
  write = await connectClient(service, writeToken);
  read = await connectClient(service, readToken);
});
afterAll(async () => {
  await write?.client.close();
  await read?.client.close();
  await service.close();
});

describe('SDK client: initialize over Streamable HTTP with a bearer token', () => {
  it('negotiates the newest version, offers tools only, and issues no session', () => {
    expect(write.transport.protocolVersion).toBe('2025-11-25');
    expect(write.transport.sessionId).toBeUndefined();
    expect(write.client.getServerVersion()).toMatchObject({ name: 'atrium' });
    const capabilities = write.client.getServerCapabilities();
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.resources).toBeUndefined();
    expect(capabilities?.prompts).toBeUndefined();
  });

  it('carries Markdown instructions: what keys look like and which tools to call first', () => {
    const text = write.client.getInstructions() ?? '';
    for (const tool of ['whoami', 'list_projects', 'describe_project']) expect(text).toContain(`\`${tool}\``);
    expect(text).toMatch(/`<PROJECT KEY>-<number>`/);
    expect(text).toContain('Lee Lead');
  });

  it('tells a read connection that it can only read', () => {
    expect(read.client.getInstructions()).toContain('can only read');
  });

  it('refuses to connect without a valid token (401)', async () => {
    const client = new SdkClient({ name: 'no-token', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
      requestInit: { headers: { Authorization: 'Bearer svc_pat_wrong' } },
    });
    const error = await client.connect(transport).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
  });
});

describe('SDK client: tools/list offers one tool per operation with a tool name', () => {
  it('lists every tool to a write connection, each with a description, schemas and annotations', async () => {
    const { tools } = await write.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(toolOperations.map((op) => op.tool).sort());
    for (const tool of tools) {
      const op = registry.byTool.get(tool.name)!;
      expect(tool.description).toBe(op.description);
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toEqual({
        readOnlyHint: op.access === 'read',
        destructiveHint: op.destructive,
        idempotentHint: op.idempotent,
        openWorldHint: false,
      });
    }
  });

  it('lists only the read tools to a read connection', async () => {
    const { tools } = await read.client.listTools();
    const expected = toolOperations.filter((op) => op.access === 'read').map((op) => op.tool);
    expect(tools.map((tool) => tool.name).sort()).toEqual(expected.sort());
  });
});

describe('SDK client: tools/call for every tool that exists', () => {
  for (const op of toolOperations) {
    const tool = op.tool!;
    for (const sample of samplesFor(tool)) {
      it(`${tool} ${JSON.stringify(sample.args)}`, async () => {
        // The SDK client checks structuredContent against the tool's outputSchema itself.
        const result = await write.client.callTool({ name: tool, arguments: sample.args });
        const content = result.content as { type: string; text: string }[];
        expect(content).toHaveLength(1);
        expect(content[0]!.type).toBe('text');
        if (sample.succeeds !== undefined) expect(result.isError).toBe(!sample.succeeds);
        if (result.isError) {
          expect(result.structuredContent).toBeUndefined();
          expect(content[0]!.text.length).toBeGreaterThan(0);
        } else {
          expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent);
        }
      });
    }
  }
});

describe('SDK client: errors', () => {
  it('an unknown tool is a protocol error -32602', async () => {
    const error = await write.client.callTool({ name: 'no_such_tool', arguments: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });

  it('a method the server does not have is -32601', async () => {
    const error = await write.client.listResources().catch((caught: unknown) => caught);
    expect((error as McpError).code).toBe(-32601);
  });

  it('ping answers', async () => {
    expect(await write.client.ping()).toEqual({});
  });
});

describe('MCP Inspector CLI lists the tools and calls one', () => {
  // As the README tells a user to run it: the bearer token given with --header.
  const cli = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/inspector/cli/build/cli.js', import.meta.url));
  const run = (args: string[]) =>
    promisify(execFile)(
      process.execPath,
      [cli, '--cli', `${service.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${writeToken}`, ...args],
      {
        timeout: 60_000,
      },
    );

  it('tools/list', async () => {
    const { stdout } = await run(['--method', 'tools/list']);
    const names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names.sort()).toEqual(toolOperations.map((op) => op.tool).sort());
  });

  it('tools/call describe_project', async () => {
    const { stdout } = await run(['--method', 'tools/call', '--tool-name', 'describe_project', '--tool-arg', 'project=CORE']);
    const result = JSON.parse(stdout) as { isError: boolean; structuredContent: { key: string } };
    expect(result.isError).toBe(false);
    expect(result.structuredContent.key).toBe('CORE');
  });
});
