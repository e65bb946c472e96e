import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { Browser, loggedIn, send, workspaceWithDevTwo } from '../oauth/support.ts';

const BOARDS = `
boards:
  - number: 1
    name: Core flow
    kind: kanban
    projects: [CORE]
    columns:
      - { name: Waiting, statuses: [To Do], max: 4 }
      - { name: Doing, statuses: [In Progress] }
      - { name: Finished, statuses: [Done] }
  - number: 2
    name: Hidden board
    kind: kanban
    projects: [HIDE]
    columns:
      - { name: Everything, statuses: [To Do, In Progress, Done] }
`;

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ workspace: workspaceWithDevTwo() + BOARDS });
});
afterAll(async () => service?.close());

describe("pages: a board's url opens a read-only board page (spec 2.5)", () => {
  it('shows the columns and cards the member can see, escaped', async () => {
    const lee = await service.token('lee@example.com');
    const created = await send(service, 'POST', '/api/v1/tickets', {
      headers: { authorization: `Bearer ${lee}` },
      json: { project: 'CORE', summary: 'Card <on> the board' },
    });
    expect(created.status).toBe(201);
    const board = await send(service, 'GET', '/api/v1/boards/1', { headers: { authorization: `Bearer ${lee}` } });
    const page = await (await loggedIn(service, 'dev2')).get(new URL(board.json.url).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="board-name">Core flow<');
    for (const column of ['Waiting', 'Doing', 'Finished']) expect(page.text).toContain(column);
    expect(page.text).toContain(`href="/browse/${created.json.key}"`);
    expect(page.text).toContain('Card &lt;on&gt; the board');
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('is 404 for a board drawing from no project the member can see', async () => {
    const page = await (await loggedIn(service, 'dev2')).get('/boards/2');
    expect(page.status).toBe(404);
    expect(page.text).not.toContain('Hidden board');
  });

  it('sends a stranger to log in first', async () => {
    expect((await new Browser(service).get('/boards/1')).location).toBe(`/login?return_to=${encodeURIComponent('/boards/1')}`);
  });
});
