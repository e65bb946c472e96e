import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import type { TestService } from '../helpers/service.ts';
import { initializeParams, postMcp, request as rpc } from '../mcp/mcp-client.ts';
import { startCrm, type Tokens } from './support.ts';

// Spec 4.8 item 8: the initialize instructions name CRM tools only to a member who may see the
// CRM (a CRM role, over the whole CRM or some companies), and its writing tools only to a
// connection with write access. A project role's crm:view does not open the CRM.

let service: TestService;
let t: Tokens;

beforeAll(async () => ({ service, t } = await startCrm()));
afterAll(() => service?.close());

async function instructions(token: string): Promise<string> {
  const reply = await postMcp(service, rpc('initialize', initializeParams('2025-11-25')), { token });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.result.instructions as string;
}

const READ_TOOLS = ['search_contacts', 'get_contact', 'search_companies', 'get_company', 'list_interactions', 'list_follow_ups'];
const WRITE_TOOLS = [
  'create_contact',
  'update_contact',
  'add_contact_email',
  'add_contact_phone',
  'update_company',
  'log_interaction',
  'complete_follow_up',
];

describe('4.8 the instructions name the CRM tools to members who may see the CRM', () => {
  it('names every CRM tool, and how deals work, to a CRM editor with write access', async () => {
    const text = await instructions(t.sam);
    expect(text).toContain('## CRM');
    for (const tool of [...READ_TOOLS, ...WRITE_TOOLS]) expect(text).toContain(`\`${tool}\``);
    expect(text).toContain('Deals are tickets of a `sales` project');
    expect(text).toContain('lost_reason');
  });

  it('names only the reading tools to a read connection', async () => {
    const text = await instructions(t.samRead);
    for (const tool of READ_TOOLS) expect(text).toContain(`\`${tool}\``);
    for (const tool of WRITE_TOOLS) expect(text).not.toContain(`\`${tool}\``);
  });

  it('names them to a member whose CRM role covers some companies only', async () => {
    expect(await instructions(t.lia)).toContain('`search_contacts`');
  });

  it('names none to a member the CRM is closed to, though a project role of hers grants crm:view', async () => {
    const text = await instructions(t.olga);
    expect(text).not.toContain('## CRM');
    expect(text).not.toContain('search_contacts');
  });

  it('names none while the CRM module is switched off', async () => {
    await setSwitch(service.db, 'crm', false);
    try {
      expect(await instructions(t.sam)).not.toContain('search_contacts');
    } finally {
      await setSwitch(service.db, 'crm', true);
    }
  });
});

describe('4.7 the CRM module switch removes its operations and tools', () => {
  const CRM_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS];
  const toolNames = async (token: string) =>
    ((await postMcp(service, rpc('tools/list'), { token })).body.result.tools as { name: string }[]).map((tool) => tool.name);

  it('lists the thirteen CRM tools while on, none while off, and answers 403 feature_disabled on REST', async () => {
    expect((await toolNames(t.sam)).filter((name) => CRM_TOOLS.includes(name)).sort()).toEqual([...CRM_TOOLS].sort());
    await setSwitch(service.db, 'crm', false);
    try {
      expect((await toolNames(t.sam)).filter((name) => CRM_TOOLS.includes(name))).toEqual([]);
      for (const [method, path] of [
        ['GET', '/contacts'],
        ['GET', '/companies/Acme%20GmbH'],
        ['POST', '/interactions'],
        ['GET', '/follow-ups'],
      ] as const) {
        const reply = await service.request(method, `/api/v1${path}`, { token: t.sam, body: method === 'POST' ? {} : undefined });
        expect(reply.status, path).toBe(403);
        expect(reply.body.error).toEqual({ code: 'feature_disabled', message: 'The CRM module is switched off in this workspace' });
      }
    } finally {
      await setSwitch(service.db, 'crm', true);
    }
  });
});
