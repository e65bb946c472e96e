import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request as rpc } from '../mcp/mcp-client.ts';

// ADR 0026: every demo workflow can be walked from a new ticket to a done status by the
// API alone — REST, MCP and a board card move — as the demo's own members would.

let svc: TestService;
let admin: string;

beforeAll(async () => {
  svc = await startTestService({ workspace: '../../examples/demo-workspace.yaml' });
  admin = await svc.token('admin@example.com');
});
afterAll(async () => {
  await svc?.close();
});

async function create(project: string, extra: Record<string, unknown> = {}): Promise<string> {
  const reply = await svc.request('POST', '/api/v1/tickets', {
    token: admin,
    body: { project, summary: `Walked through ${project}`, ...extra },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.key;
}

async function take(key: string, body: Record<string, unknown>): Promise<{ name: string; category: string | null }> {
  const reply = await svc.request('POST', `/api/v1/tickets/${key}/transitions`, { token: admin, body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.status;
}

describe('demo workspace: a new ticket of every demo project can be walked to a done status through the API', () => {
  it('ATR (software development): start work, request review, done', async () => {
    const key = await create('ATR', { type: 'Story' });
    expect(await take(key, { transition: 'Start work', assignee: 'me' })).toMatchObject({ name: 'In Progress' });
    expect(await take(key, { transition: 'Request review' })).toMatchObject({ name: 'In Review' });
    expect(await take(key, { transition: 'Done', resolution: 'Done' })).toEqual({ name: 'Done', category: 'done' });
  });

  it('ATR through MCP tools alone', async () => {
    const call = async (name: string, args: Record<string, unknown>) => {
      const reply = await postMcp(svc, rpc('tools/call', { name, arguments: args }), { token: admin });
      expect(reply.body.result.isError, reply.body.result.content[0].text).toBe(false);
      return reply.body.result.structuredContent;
    };
    const { key } = await call('create_ticket', { project: 'ATR', summary: 'Walked by an agent', type: 'Task' });
    await call('transition_ticket', { key, transition: 'In Progress', assignee: 'me' });
    await call('transition_ticket', { key, transition: 'In Review' });
    expect((await call('transition_ticket', { key, transition: 'Done', resolution: 'Done' })).status).toEqual({
      name: 'Done',
      category: 'done',
    });
  });

  it('ATR on the board: card moves across every column to Done', async () => {
    const key = await create('ATR', { type: 'Bug', assignee: 'me' });
    const move = async (column: string, extra: Record<string, unknown> = {}) => {
      const reply = await svc.request('POST', '/api/v1/boards/1/moves', { token: admin, body: { key, column, ...extra } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.status;
    };
    await move('In Progress', { assignee: 'me' });
    await move('In Review');
    expect(await move('Done', { resolution: 'Done' })).toEqual({ name: 'Done', category: 'done' });
  });

  it('HELP (support request): start progress, resolve', async () => {
    const key = await create('HELP');
    await take(key, { transition: 'Start progress', assignee: 'me' });
    expect(await take(key, { transition: 'Resolve', resolution: 'Answered' })).toEqual({ name: 'Resolved', category: 'done' });
  });

  it('MKT (team tasks): start, finish', async () => {
    const key = await create('MKT');
    await take(key, { transition: 'Start' });
    expect(await take(key, { transition: 'Finish', resolution: 'Done' })).toEqual({ name: 'Done', category: 'done' });
  });

  it('SALES (sales pipeline): qualify, send a proposal once it has a value, win; or lose with a reason', async () => {
    const won = await create('SALES');
    await take(won, { transition: 'Qualify' });
    const patched = await svc.request('PATCH', `/api/v1/tickets/${won}`, {
      token: admin,
      body: { fields: { deal_value: 12000, deal_currency: 'EUR', expected_close: '2027-01-31' } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await take(won, { transition: 'Send proposal' });
    expect(await take(won, { transition: 'Won' })).toEqual({ name: 'Won', category: 'done' });

    const lost = await create('SALES');
    expect(await take(lost, { transition: 'Lost', fields: { lost_reason: 'Chose a competitor' } })).toEqual({
      name: 'Lost',
      category: 'done',
    });
  });
});
