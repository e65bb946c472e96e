import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSwitch } from '../../src/core/settings.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { callTool } from '../mcp/mcp-client.ts';
import { loggedIn } from '../oauth/support.ts';

// pages-workspace.yaml: scrum board 1 draws from CORE; Sprint 1 (active) holds CORE-3, Sprint 2
// (future) holds CORE-4; CORE-1 is done and CORE-2 in no sprint.

let service: TestService;
let lee: string;

beforeAll(async () => {
  service = await startTestService({ workspace: 'pages-workspace.yaml' });
  lee = await service.token('lee@example.com');
});
afterAll(async () => service?.close());

const get = (path: string) => service.request('GET', `/api/v1${path}`, { token: lee });
type Listed = { key: string }[];
const cardKeys = (board: { columns: { tickets: Listed }[] }) => board.columns.flatMap((c) => c.tickets.map((t) => t.key)).sort();
const keysOf = (list: Listed) => list.map((t) => t.key).sort();

const OFF = 'The sprints module is switched off in this workspace: a board shows every ticket; leave out `sprint`';

async function withSprintsOff(check: () => Promise<void>): Promise<void> {
  await setSwitch(service.db, 'sprints', false);
  try {
    await check();
  } finally {
    await setSwitch(service.db, 'sprints', true);
  }
}

describe('1 with the sprints module off, a board and its backlog show no sprint and hold back no ticket', () => {
  it('shows the active sprint and its tickets while sprints are on', async () => {
    const board = await get('/boards/1');
    expect(board.body.sprint.name).toBe('Sprint 1');
    expect(cardKeys(board.body)).toEqual(['CORE-3']);
    const backlog = await get('/boards/1/backlog');
    expect(backlog.body.sprints.map((s: { name: string; tickets: Listed }) => [s.name, keysOf(s.tickets)])).toEqual([
      ['Sprint 1', ['CORE-3']],
      ['Sprint 2', ['CORE-4']],
    ]);
    expect(keysOf(backlog.body.backlog)).toEqual(['CORE-2']);
  });

  it('answers the board with every ticket and no sprint (REST and MCP)', async () => {
    await withSprintsOff(async () => {
      const board = await get('/boards/1');
      expect(board.status).toBe(200);
      expect(board.body.sprint).toBeNull();
      expect(cardKeys(board.body)).toEqual(['CORE-1', 'CORE-2', 'CORE-3', 'CORE-4']);
      expect((await get('/boards/1?sprint=none')).body).toEqual(board.body);
      const tool = await callTool(service, lee, 'get_board', { board: 1 });
      expect(tool.isError).toBe(false);
      expect(tool.structuredContent).toEqual(board.body);
    });
  });

  it('refuses a sprint named on the board with 403 feature_disabled naming sprints (REST and MCP)', async () => {
    await withSprintsOff(async () => {
      for (const sprint of ['Sprint 1', 'Sprint 2', 'No such sprint']) {
        const refused = await get(`/boards/1?sprint=${encodeURIComponent(sprint)}`);
        expect(refused.status).toBe(403);
        expect(refused.body.error).toEqual({ code: 'feature_disabled', message: OFF });
      }
      const kanban = await get('/boards/2?sprint=Sprint%201');
      expect(kanban.body.error).toEqual({ code: 'feature_disabled', message: OFF });
      const tool = await callTool(service, lee, 'get_board', { board: 1, sprint: 'Sprint 1' });
      expect(tool.isError).toBe(true);
      expect(tool.content[0]!.text).toContain(OFF);
    });
  });

  it('answers the backlog with no sprints and every open ticket of the board (REST and MCP)', async () => {
    await withSprintsOff(async () => {
      const backlog = await get('/boards/1/backlog');
      expect(backlog.status).toBe(200);
      expect(backlog.body.sprints).toEqual([]);
      expect(keysOf(backlog.body.backlog)).toEqual(['CORE-2', 'CORE-3', 'CORE-4']);
      const tool = await callTool(service, lee, 'get_backlog', { board: 1 });
      expect(tool.isError).toBe(false);
      expect(tool.structuredContent).toEqual(backlog.body);
    });
  });

  it('keeps the sprints where they were: switched on again, the board shows its active sprint', async () => {
    await withSprintsOff(async () => {
      expect((await get('/boards/1')).body.sprint).toBeNull();
    });
    const board = await get('/boards/1');
    expect(board.body.sprint.name).toBe('Sprint 1');
    expect(cardKeys(board.body)).toEqual(['CORE-3']);
  });
});

describe('1 the board page obeys the sprints switch as the API does', () => {
  it('shows every ticket and no sprint or sprint picker, and refuses a sprint asked for with 403', async () => {
    const browser = await loggedIn(service, 'dev2');
    expect((await browser.get('/boards/1')).text).toContain('id="sprint-name"');
    await withSprintsOff(async () => {
      const page = await browser.get('/boards/1');
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('id="sprint-name"');
      expect(page.text).not.toContain('id="sprints"');
      expect(page.text).not.toContain('Sprint 1');
      for (const key of ['CORE-2', 'CORE-3', 'CORE-4']) expect(page.text).toContain(`href="/browse/${key}"`);
      const refused = await browser.get('/boards/1?sprint=Sprint%201');
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('The sprints module is switched off in this workspace');
      expect((await browser.get('/boards/1?sprint=none')).status).toBe(200);
    });
  });
});
