import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/modules/index.ts';
import { buildToolset, type ToolEntry } from '../../src/surfaces/mcp/tools.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request } from './mcp-client.ts';
import { arrangeTicket, samplesFor, type Sample } from './samples.ts';

// Twin services from the same workspace file: every sample goes through REST on one and MCP on
// the other, in the same order, so both worlds stay alike and a write can be compared with its twin.
interface World {
  service: TestService;
  token: string;
  readToken: string;
}
let restWorld: World;
let mcpWorld: World;

async function world(): Promise<World> {
  const service = await startTestService();
  const token = await service.token('lee@example.com', 'write');
  const readToken = await service.token('lee@example.com', 'read', 'reader');
  await arrangeTicket(service.request, token, registry.byTool.has('create_ticket'));
  return { service, token, readToken };
}

beforeAll(async () => {
  restWorld = await world();
  mcpWorld = await world();
});
afterAll(async () => {
  await restWorld?.service.close();
  await mcpWorld?.service.close();
});

/** The REST request for the same input: path parameters in the path, GET arguments in the query, the rest as the body. */
function restRequest(entry: ToolEntry, args: Record<string, unknown>): { path: string; body?: Record<string, unknown> } | null {
  let path = entry.op.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [argument, value] of Object.entries(args)) {
    const target = entry.arguments.get(argument);
    if (!target) continue;
    if (target.part === 'params') path = path.replace(`:${target.name}`, encodeURIComponent(String(value)));
    else if (target.part === 'query') query.append(target.name, String(value));
    else body[target.name] = value;
  }
  // A missing path parameter has no REST form (the path would name another endpoint).
  if (path.includes('/:')) return null;
  const search = query.size ? `?${query}` : '';
  return { path: `/api/v1${path}${search}`, ...(entry.op.method === 'GET' ? {} : { body }) };
}

/** Twin worlds differ only in what each database assigns: ids and times. */
function masked(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>'),
  );
}

type Access = 'read' | 'write';
const tokenOf = (where: World, access: Access) => (access === 'read' ? where.readToken : where.token);

const viaMcp = async (where: World, entry: ToolEntry, sample: Sample, access: Access = 'write') =>
  (await postMcp(where.service, request('tools/call', { name: entry.name, arguments: sample.args }), { token: tokenOf(where, access) }))
    .body.result;

/** The one deliberate difference (ADR 0019): a 422 about a renamed path parameter names the tool's argument. */
function toolSentence(entry: ToolEntry, message: string): string {
  for (const [param, argument] of Object.entries(entry.op.toolArgs)) {
    if (message.startsWith(`/${param}:`)) return `/${argument}${message.slice(param.length + 1)}`;
  }
  return message;
}

/** What REST answers, as the tool result it should match: the data, or the error sentence. */
async function viaRest(where: World, entry: ToolEntry, rest: { path: string; body?: unknown }, access: Access = 'write') {
  const reply = await where.service.request(entry.op.method, rest.path, { token: tokenOf(where, access), body: rest.body });
  if (reply.status >= 400) return { content: [{ type: 'text', text: toolSentence(entry, reply.body.error.message) }], isError: true };
  expect(reply.status).toBe(entry.op.status);
  return { content: [{ type: 'text', text: JSON.stringify(reply.body) }], structuredContent: reply.body, isError: false };
}

// Read tokens first: they change nothing, so both worlds stay alike for the write-token runs.
describe('parity with a read token: every tool answers what REST answers, and every change is refused before its input is read', () => {
  for (const entry of buildToolset(registry).entries) {
    for (const sample of samplesFor(entry.name)) {
      it(`${entry.name} ${JSON.stringify(sample.args)}`, async () => {
        const rest = restRequest(entry, sample.args);
        const result = await viaMcp(mcpWorld, entry, sample, 'read');
        if (entry.op.access === 'write') {
          expect(result).toEqual({
            content: [{ type: 'text', text: 'This token has read access only; changes need a token with read and change access' }],
            isError: true,
          });
          if (rest) expect(await viaRest(restWorld, entry, rest, 'read')).toEqual(result);
          return;
        }
        if (!rest) return;
        expect(result).toEqual(await viaRest(mcpWorld, entry, rest, 'read'));
      });
    }
  }
});

describe('parity: for every tool, the same input through REST and MCP gives the same data or the same error sentence', () => {
  for (const entry of buildToolset(registry).entries) {
    for (const sample of samplesFor(entry.name)) {
      it(`${entry.name} ${JSON.stringify(sample.args)}`, async () => {
        const rest = restRequest(entry, sample.args);
        const result = await viaMcp(mcpWorld, entry, sample);
        if (!rest) {
          // Without its path parameter the tool still answers, naming the argument; REST has no such request.
          expect(result.isError).toBe(true);
          expect(result.content[0].text).toMatch(/^\/\w+: is required$/);
          return;
        }
        if (entry.op.access === 'read') {
          // Reads change nothing: the same world answers both doors, byte for byte.
          expect(result).toEqual(await viaRest(mcpWorld, entry, rest));
        }
        const twin = await viaRest(restWorld, entry, rest);
        expect(masked(result)).toEqual(masked(twin));
        if (sample.succeeds !== undefined) expect(result.isError).toBe(!sample.succeeds);
      });
    }
  }
});
