import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { postMcp, request } from '../mcp/mcp-client.ts';
import { api, callTool, startKnowledge, type KnowledgeTokens } from './support.ts';

const MAX = 1_000_000;
const MIB = 1024 * 1024;
// a character outside the Basic Multilingual Plane: 4 bytes of UTF-8, 12 when escaped as JSON
const FACE = '😀';
// characters JSON must escape, among 4-byte ones
const MIXED = ['\u0001', '"', '\u001f', '\\', FACE];
// the largest requests take seconds to store and read back on a busy machine
const SLOW = 120_000;

/** JSON as an encoder that writes ASCII only sends it (Python's default): every other UTF-16 unit as `\uXXXX`. */
const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
const repeatTo = (units: readonly string[], count: number) => Array.from({ length: count }, (_, i) => units[i % units.length]).join('');

let service: TestService;
let t: KnowledgeTokens;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  ({ service, t } = await startKnowledge());
  call = api(service);
});
afterAll(() => service.close());

const json = { 'content-type': 'application/json' };
const rest = (method: string, path: string, text: string) => service.request(method, `/api/v1/knowledge${path}`, { token: t.dev1, body: text, headers: json });
const mcp = (name: string, args: Record<string, unknown>) => postMcp(service, asciiJson(request('tools/call', { name, arguments: args })), { token: t.dev1, headers: json });

describe('8 a page body may hold 1,000,000 characters, and a request holding the longest one is never refused for its size', () => {
  it('creates a page with the longest title, body and message, every character a 4-byte one sent escaped (REST)', async () => {
    const body = FACE.repeat(MAX);
    const text = asciiJson({ title: FACE.repeat(255), body, message: FACE.repeat(500) });
    expect(Buffer.byteLength(text)).toBeGreaterThan(12_000_000);
    const created = await rest('POST', '/spaces/ENG/pages', text);
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    expect(created.body.body.text === body).toBe(true);
  }, SLOW);

  it('replaces a body with the longest one of characters JSON must escape and others, sent escaped (MCP)', async () => {
    const body = repeatTo(MIXED, MAX);
    const sent = asciiJson(request('tools/call', { name: 'update_page', arguments: { space: 'ENG', page: 'setup', body, message: FACE.repeat(500) } }));
    expect(Buffer.byteLength(sent)).toBeGreaterThan(5 * MIB);
    const answer = await postMcp(service, sent, { token: t.dev1, headers: json });
    expect(answer.status).toBe(200);
    expect(answer.body.result.isError).toBe(false);
    const page = await call(t.dev1, 'GET', '/spaces/ENG/pages/setup');
    expect(page.body.body.text === body).toBe(true);
  }, SLOW);

  it('refuses one character more with 422 on /body, through REST and MCP, changing nothing', async () => {
    const before = await call(t.dev1, 'GET', '/spaces/ENG/pages/deploy');
    const longer = FACE.repeat(MAX + 1);
    const refused = await rest('PATCH', '/spaces/ENG/pages/deploy', asciiJson({ body: longer }));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual({ code: 'invalid', message: `/body: must NOT have more than ${MAX} characters` });
    const tool = await mcp('create_page', { space: 'ENG', title: 'One too many', body: repeatTo(MIXED, MAX + 1) });
    expect(tool.body.result.isError).toBe(true);
    expect(tool.body.result.content[0].text).toContain(`/body: must NOT have more than ${MAX} characters`);
    expect((await call(t.dev1, 'GET', '/spaces/ENG/pages/deploy')).body.version).toBe(before.body.version);
    expect((await call(t.dev1, 'GET', '/spaces/ENG/pages/one-too-many')).status).toBe(404);
  }, SLOW);

  it('refuses a request larger than any page write with 413 in the spec’s error shape, REST and MCP', async () => {
    const oversized = JSON.stringify({ title: 'Huge', body: 'a'.repeat(12 * MIB) });
    const refused = await rest('POST', '/spaces/ENG/pages', oversized);
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ error: { code: 'payload_too_large', message: 'The request body is larger than 12 MiB' } });
    const tool = await postMcp(service, request('tools/call', { name: 'create_page', arguments: { space: 'ENG', title: 'Huge', body: 'a'.repeat(12 * MIB) } }), { token: t.dev1 });
    expect(tool.status).toBe(413);
    expect(tool.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'The request body is larger than 12 MiB' } });
    expect((await call(t.dev1, 'GET', '/spaces/ENG/pages/huge')).status).toBe(404);
  });

  it('holds every other operation to 1 MiB, the page writes’ larger limit notwithstanding', async () => {
    const padding = 'a'.repeat(MIB);
    const move = await rest('POST', '/spaces/ENG/pages/deploy/move', JSON.stringify({ parent: null, padding }));
    expect(move.status).toBe(413);
    expect(move.body.error).toEqual({ code: 'payload_too_large', message: 'The request body is larger than 1 MiB' });
    const tool = await postMcp(service, request('tools/call', { name: 'move_page', arguments: { space: 'ENG', page: 'deploy', parent: null, padding } }), { token: t.dev1 });
    expect(tool.status).toBe(413);
    expect(tool.body.error).toEqual({ code: -32600, message: 'The request body is larger than 1 MiB' });
    const batch = await postMcp(service, [request('tools/call', { name: 'list_spaces', arguments: { padding } }), request('ping')], { token: t.dev1 });
    expect(batch.status).toBe(413);
  });

  it('says both limits in the OpenAPI document: the body’s characters, and the request’s size where it is more than 1 MiB', async () => {
    const document = (await service.request('GET', '/api/v1/openapi.json')).body;
    for (const [path, method] of [['/knowledge/spaces/{space}/pages', 'post'], ['/knowledge/spaces/{space}/pages/{page}', 'patch']] as const) {
      const op = document.paths[path][method];
      expect(op.requestBody.content['application/json'].schema.properties.body.maxLength).toBe(MAX);
      expect(op.responses['413'].description).toContain('12 MiB');
    }
    expect(document.paths['/knowledge/spaces/{space}/pages/{page}/move'].post.responses['413'].description).toContain('(1 MiB)');
  });
});
