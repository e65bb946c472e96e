import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, tokensFor, type Tokens } from '../boards/support.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postMcp, request as rpc } from '../mcp/mcp-client.ts';

// ADR 0037: the round trips each hot request makes, counted at the driver with a warm cache. A
// change that adds one fails here; timings stay in bench/, never in tests. Begin and commit of a
// write's transaction count as round trips too.

let service: TestService;
let t: Tokens;
const keys: string[] = [];

beforeAll(async () => {
  service = await startTestService({ workspace: 'boards-workspace.yaml' });
  t = await tokensFor(service);
  for (let i = 0; i < 6; i += 1) keys.push(await createTicket(service, t.lee, 'CORE', `Counted ticket ${i} payment`));
  await service.request('POST', `/api/v1/tickets/${keys[0]}/comments`, { token: t.lee, body: { body: 'A comment to read' } });
  // labels the project has before the counted requests give them (adding one changes the structure)
  await service.request('PATCH', `/api/v1/tickets/${keys[5]}`, { token: t.lee, body: { labels: ['counted', 'again'] } });
});
afterAll(() => service.close());

/** Round trips of one request, after the same request once (so the structure cache is warm). */
async function roundTrips(send: () => Promise<{ status: number; text: string }>, expectedStatus: number): Promise<number> {
  const warm = await send();
  expect(warm.status, warm.text).toBe(expectedStatus);
  const before = service.database.queries.count;
  const reply = await send();
  expect(reply.status, reply.text).toBe(expectedStatus);
  return service.database.queries.count - before;
}

const rest =
  (method: string, path: string, body?: () => unknown, as: () => string = () => t.lee) =>
  () =>
    service.request(method, `/api/v1${path}`, { token: as(), body: body?.() });

const tool =
  (name: string, args: () => Record<string, unknown>, as: () => string = () => t.lee) =>
  async () => {
    const reply = await postMcp(service, rpc('tools/call', { name, arguments: args() }), { token: as() });
    return { status: reply.body.result.isError ? 422 : 200, text: JSON.stringify(reply.body) };
  };

let n = 0;
const HOT: [string, () => Promise<{ status: number; text: string }>, number, number][] = [
  ['GET /me', rest('GET', '/me'), 200, 1],
  ['GET /projects/{key}', rest('GET', '/projects/CORE'), 200, 1],
  ['GET /tickets/{key}', rest('GET', '/tickets/CORE-1'), 200, 1],
  ['GET /tickets?query=<word>', rest('GET', '/tickets?query=paym'), 200, 1],
  ['GET /tickets?project&status=open&sort=updated', rest('GET', '/tickets?project=CORE&status=open&sort=updated'), 200, 1],
  ['GET /boards/{n}', rest('GET', '/boards/1?sprint=none'), 200, 1],
  // a scrum board's active sprint is read by the board's own statement
  ['GET /boards/{n} of its active sprint', rest('GET', '/boards/1'), 200, 1],
  // the board's open sprints are read by the backlog's own statement
  ['GET /boards/{n}/backlog', rest('GET', '/boards/1/backlog'), 200, 1],
  ['POST /tickets', rest('POST', '/tickets', () => ({ project: 'CORE', summary: `Counted create ${(n += 1)}` })), 201, 2],
  // labels the project has: named from the structure store
  [
    'POST /tickets with a label',
    rest('POST', '/tickets', () => ({ project: 'CORE', summary: `Counted create ${(n += 1)}`, labels: ['counted'] })),
    201,
    2,
  ],
  [
    'PATCH /tickets/{key} labels',
    rest('PATCH', '/tickets/CORE-5', () => ({ labels: n++ % 2 ? ['counted'] : ['counted', 'again'] })),
    200,
    7,
  ],
  [
    'POST /tickets/{key}/transitions',
    rest('POST', '/tickets/CORE-2/transitions', () => ({ transition: n++ % 2 ? 'To Do' : 'In Progress' })),
    200,
    2,
  ],
  ['POST /tickets/{key}/comments', rest('POST', '/tickets/CORE-1/comments', () => ({ body: 'Counted' })), 201, 2],
  // the workspace gives time:log to no role: an administrator logs the work
  [
    'POST /tickets/{key}/worklogs',
    rest(
      'POST',
      '/tickets/CORE-1/worklogs',
      () => ({ time_spent: '5m' }),
      () => t.ada,
    ),
    201,
    2,
  ],
  [
    'POST /boards/{n}/moves',
    rest('POST', '/boards/1/moves', () => ({ key: 'CORE-3', column: 'To Do', ...(n++ % 2 ? { before: 'CORE-4' } : {}) })),
    200,
    7,
  ],
  // into another column: the transition is written on the card's locked read
  [
    'POST /boards/{n}/moves across columns',
    rest('POST', '/boards/1/moves', () => ({ key: 'CORE-5', column: n++ % 2 ? 'To Do' : 'Doing' })),
    200,
    8,
  ],
  ['MCP whoami', tool('whoami', () => ({})), 200, 1],
  ['MCP describe_project', tool('describe_project', () => ({ project: 'CORE' })), 200, 1],
  ['MCP get_ticket', tool('get_ticket', () => ({ key: 'CORE-1' })), 200, 1],
  ['MCP search_tickets', tool('search_tickets', () => ({ query: 'paym' })), 200, 1],
  ['MCP get_board', tool('get_board', () => ({ board: 1, sprint: 'none' })), 200, 1],
  ['MCP get_backlog', tool('get_backlog', () => ({ board: 1 })), 200, 1],
  ['MCP add_comment', tool('add_comment', () => ({ key: 'CORE-1', body: 'Counted' })), 200, 2],
  [
    'MCP log_work',
    tool(
      'log_work',
      () => ({ key: 'CORE-1', time_spent: '5m' }),
      () => t.ada,
    ),
    200,
    2,
  ],
  ['MCP transition_ticket', tool('transition_ticket', () => ({ key: 'CORE-6', transition: n++ % 2 ? 'To Do' : 'In Progress' })), 200, 2],
];

describe('round trips per hot request, warm cache (a change that adds one fails)', () => {
  for (const [name, send, status, expected] of HOT) {
    it(`${name}: ${expected}`, async () => {
      expect(await roundTrips(send, status)).toBe(expected);
    });
  }
});
