import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { postMcp, request } from '../mcp/mcp-client.ts';
import { api, startKnowledge, type KnowledgeTokens } from './support.ts';

const MAX = 1_000_000;
const MIB = 1024 * 1024;
// a character outside the Basic Multilingual Plane: 4 bytes of UTF-8, 12 when escaped as JSON
const FACE = '😀';
// characters JSON must escape, among 4-byte ones
const MIXED = ['\u0001', '"', '\u001f', '\\', FACE];
// the largest requests take seconds to store and read back on a busy machine
const SLOW = 120_000;

/** JSON as an encoder that writes ASCII only sends it (Python's default): every other UTF-16 unit as `\uXXXX`. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
const rest = (method: string, path: string, text: string) =>
  service.request(method, `/api/v1/knowledge${path}`, { token: t.dev1, body: text, headers: json });
const toolCall = (name: string, args: Record<string, unknown>) => request('tools/call', { name, arguments: args });
const mcp = (text: string) => postMcp(service, text, { token: t.dev1, headers: json });

describe('8 a page body holds up to 1,000,000 characters, and no request holding one is refused for its size', () => {
  it(
    'creates a page with the longest title, body and message, all 4-byte characters sent escaped (REST)',
    async () => {
      const body = FACE.repeat(MAX);
      const text = asciiJson({ title: FACE.repeat(255), body, message: FACE.repeat(500) });
      expect(Buffer.byteLength(text)).toBeGreaterThan(12_000_000);
      const created = await rest('POST', '/spaces/ENG/pages', text);
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      expect(created.body.body.text === body).toBe(true);
    },
    SLOW,
  );

  it(
    'replaces a body with the longest one of characters JSON must escape and others, sent escaped (MCP)',
    async () => {
      const body = repeatTo(MIXED, MAX);
      const sent = asciiJson(toolCall('update_page', { space: 'ENG', page: 'setup', body, message: FACE.repeat(500) }));
      expect(Buffer.byteLength(sent)).toBeGreaterThan(5 * MIB);
      const answer = await mcp(sent);
      expect(answer.status).toBe(200);
      expect(answer.body.result.isError).toBe(false);
      const page = await call(t.dev1, 'GET', '/spaces/ENG/pages/setup');
      expect(page.body.body.text === body).toBe(true);
    },
    SLOW,
  );

  it(
    'refuses one character more with 422 on /body, through REST and MCP, changing nothing',
    async () => {
      const before = await call(t.dev1, 'GET', '/spaces/ENG/pages/deploy');
      const refused = await rest('PATCH', '/spaces/ENG/pages/deploy', asciiJson({ body: FACE.repeat(MAX + 1) }));
      expect(refused.status).toBe(422);
      const tooLong = `/body: must NOT have more than ${MAX} characters`;
      expect(refused.body.error).toEqual({ code: 'invalid', message: tooLong });
      const longer = repeatTo(MIXED, MAX + 1);
      const tool = await mcp(asciiJson(toolCall('create_page', { space: 'ENG', title: 'One too many', body: longer })));
      expect(tool.body.result.isError).toBe(true);
      expect(tool.body.result.content[0].text).toContain(tooLong);
      expect((await call(t.dev1, 'GET', '/spaces/ENG/pages/deploy')).body.version).toBe(before.body.version);
      expect((await call(t.dev1, 'GET', '/spaces/ENG/pages/one-too-many')).status).toBe(404);
    },
    SLOW,
  );

  it('refuses a request larger than any page write with 413 in the spec’s error shape, REST and MCP', async () => {
    const huge = { title: 'Huge', body: 'a'.repeat(12 * MIB) };
    const refused = await rest('POST', '/spaces/ENG/pages', JSON.stringify(huge));
    expect(refused.status).toBe(413);
    const message = 'The request body is larger than 12 MiB';
    expect(refused.body).toEqual({ error: { code: 'payload_too_large', message } });
    const tool = await mcp(JSON.stringify(toolCall('create_page', { space: 'ENG', ...huge })));
    expect(tool.status).toBe(413);
    expect(tool.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message } });
    expect((await call(t.dev1, 'GET', '/spaces/ENG/pages/huge')).status).toBe(404);
  });

  it('holds every other operation to 1 MiB, the page writes’ larger limit notwithstanding', async () => {
    const padding = 'a'.repeat(MIB);
    const move = await rest('POST', '/spaces/ENG/pages/deploy/move', JSON.stringify({ parent: null, padding }));
    expect(move.status).toBe(413);
    expect(move.body.error).toEqual({ code: 'payload_too_large', message: 'The request body is larger than 1 MiB' });
    const args = { space: 'ENG', page: 'deploy', parent: null, padding };
    const tool = await mcp(JSON.stringify(toolCall('move_page', args)));
    expect(tool.status).toBe(413);
    expect(tool.body.error).toEqual({ code: -32600, message: 'The request body is larger than 1 MiB' });
    const batch = await mcp(JSON.stringify([toolCall('list_spaces', { padding }), request('ping')]));
    expect(batch.status).toBe(413);
  });

  it('states both limits in the OpenAPI document: the body’s characters, and a request size over 1 MiB', async () => {
    const { paths } = (await service.request('GET', '/api/v1/openapi.json')).body;
    const pages = '/knowledge/spaces/{space}/pages';
    const writes = [paths[pages].post, paths[`${pages}/{page}`].patch];
    for (const op of writes) {
      expect(op.requestBody.content['application/json'].schema.properties.body.maxLength).toBe(MAX);
      expect(op.responses['413'].description).toContain('12 MiB');
    }
    expect(paths[`${pages}/{page}/move`].post.responses['413'].description).toContain('(1 MiB)');
  });
});
