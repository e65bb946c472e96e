import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request } from '../mcp/mcp-client.ts';
import { auditEntries, formsApi, formsState, tokensFor, type Tokens } from './support.ts';

let service: TestService;
let t: Tokens;

beforeAll(async () => {
  service = await startTestService({ workspace: 'helpdesk-workspace.yaml' });
  t = await tokensFor(service);
});
afterAll(() => service.close());

const FORM_TOOLS = [
  'list_request_types',
  'get_request_type',
  'create_request_type',
  'update_request_type',
  'reorder_request_types',
  'retire_request_type',
];

async function toolNames(token: string): Promise<string[]> {
  const reply = await postMcp(service, request('tools/list'), { token });
  return reply.body.result.tools.map((tool: { name: string }) => tool.name);
}

async function call(token: string, name: string, args: Record<string, unknown>) {
  const reply = await postMcp(service, request('tools/call', { name, arguments: args }), { token });
  expect(reply.status).toBe(200);
  return reply.body.result as { isError: boolean; structuredContent?: any; content: { text: string }[] };
}

describe('4.8 the forms tools: read ones for a read token, all six for a write token; retire is destructive', () => {
  it('offers the six tools to a write token and only the two read tools to a read token', async () => {
    const tools = (await postMcp(service, request('tools/list'), { token: t.pia })).body.result.tools as {
      name: string;
      annotations: Record<string, boolean>;
    }[];
    const forms = tools.filter((tool) => FORM_TOOLS.includes(tool.name));
    expect(forms.map((tool) => tool.name).sort()).toEqual([...FORM_TOOLS].sort());
    for (const tool of forms) expect(tool.annotations.destructiveHint, tool.name).toBe(tool.name === 'retire_request_type');
    const read = await toolNames(t.piaRead);
    expect(FORM_TOOLS.filter((name) => read.includes(name))).toEqual(['list_request_types', 'get_request_type']);
  });
});

describe('4.8 a tool does what its REST operation does, with the spec’s argument names', () => {
  it('creates, changes, reorders, reads and retires a form through tools', async () => {
    const created = await call(t.pia, 'create_request_type', {
      project: 'HELP',
      key: 'via-mcp',
      name: 'Made by a tool',
      ticket_type: 'Question',
      submission: 'open',
    });
    expect(created.isError, created.content[0]!.text).toBe(false);
    expect(created.structuredContent).toMatchObject({ key: 'via-mcp', submission: 'open', position: 2 });

    const changed = await call(t.pia, 'update_request_type', { project: 'help', request_type: 'Made by a tool', help_text: 'Hello' });
    expect(changed.structuredContent.help_text).toBe('Hello');

    const ordered = await call(t.pia, 'reorder_request_types', { project: 'HELP', order: ['via-mcp'] });
    expect(ordered.structuredContent.request_types.map((f: { key: string }) => f.key)).toEqual(['via-mcp', 'get-help', 'report-outage']);

    const read = await call(t.vic, 'get_request_type', { project: 'HELP', request_type: 'via-mcp' });
    expect(read.structuredContent).toEqual({ ...changed.structuredContent, position: 0 });

    const retired = await call(t.fay, 'retire_request_type', { project: 'HELP', request_type: 'via-mcp' });
    expect(retired.structuredContent.archived).toBe(true);
    const listed = await call(t.vic, 'list_request_types', { project: 'HELP', include_archived: true });
    expect(listed.structuredContent.request_types.map((f: { key: string }) => f.key)).toEqual(['get-help', 'report-outage', 'via-mcp']);

    const audit = await auditEntries(service, 'HELP request type via-mcp');
    expect(audit.map((e) => [e.action, e.via])).toEqual([
      ['request_type.created', "pia's agent"],
      ['request_type.updated', "pia's agent"],
      ['request_type.retired', "fay's agent"],
    ]);
  });

  it('answers a refusal as an error result carrying the REST sentence, changing nothing', async () => {
    const before = await formsState(service);
    const result = await call(t.fay, 'update_request_type', { project: 'HELP', request_type: 'report-outage', name: 'Sneaky' });
    const rest = await formsApi(service).update(t.fay, 'report-outage', { name: 'Sneaky' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe(rest.body.error.message);
    expect(await formsState(service)).toEqual(before);
  });

  it('raises a ticket through a form with create_ticket’s request_type', async () => {
    const result = await call(t.abe, 'create_ticket', { project: 'HELP', summary: 'From an agent', request_type: 'get-help' });
    expect(result.isError, result.content[0]!.text).toBe(false);
    expect(result.structuredContent).toMatchObject({ type: 'Question', request_type: 'Get help' });
  });
});

describe('4.8 tools of a switched-off module are not listed, and calling one says it is switched off', () => {
  it('hides the forms tools while the helpdesk is off', async () => {
    await setSwitch(service.db, 'helpdesk', false);
    try {
      expect((await toolNames(t.pia)).filter((name) => FORM_TOOLS.includes(name))).toEqual([]);
      const result = await call(t.pia, 'list_request_types', { project: 'HELP' });
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(/helpdesk module is switched off/);
    } finally {
      await setSwitch(service.db, 'helpdesk', true);
    }
  });
});
