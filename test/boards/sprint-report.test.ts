import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { Browser, decodeEntities } from '../oauth/support.ts';
import { boardsWorkspaceWithPasswords } from './board-admin-support.ts';

// A sprint's report (spec 1: done in the browser) is read from what the service records: the
// sprint's membership changes and the tickets' status changes in their history.

let service: TestService;
let lee: string;

beforeAll(async () => {
  service = await startTestService({ workspace: boardsWorkspaceWithPasswords() });
  lee = await service.token('lee@example.com', 'write');
});
afterAll(async () => service?.close());

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await service.request(method, `/api/v1${path}`, { token: lee, body });
  expect(reply.status, reply.text).toBeLessThan(300);
  return reply.body;
};

async function loggedIn(persona: string): Promise<Browser> {
  const browser = new Browser(service);
  expect((await browser.logIn(`${persona}@example.com`, `${persona}-password`)).status).toBe(303);
  return browser;
}

const summaryOf = (page: string) => /<p id="sprint-summary">([^<]+)<\/p>/.exec(decodeEntities(page))?.[1];

describe("a sprint's report is of an active or closed sprint, for those who can see its board", () => {
  it('answers 409 for a sprint not started, and 404 to a member who sees none of the board’s projects', async () => {
    const lees = await loggedIn('lee');
    const future = await lees.get('/boards/1/sprints/Sprint%202/report');
    expect(future.status).toBe(409);
    expect(future.text).toContain('has not started');
    const olga = await loggedIn('olga');
    expect((await olga.get('/boards/1/sprints/Sprint%201/report')).status).toBe(404);
    expect((await lees.get('/boards/1/sprints/No%20such/report')).status).toBe(404);
  });
});

describe('an active sprint: what it holds now is not completed yet, a ticket moved out while it runs is removed', () => {
  it('counts a ticket moved out as removed, not as not completed, and lists the days from the start', async () => {
    const planned = (await api('POST', '/tickets', { project: 'CORE', summary: 'Planned' })).key as string;
    const dropped = (await api('POST', '/tickets', { project: 'CORE', summary: 'Dropped' })).key as string;
    // Sprint 1 of the file is active, started before the tickets existed: both join after its start
    for (const key of [planned, dropped]) await api('POST', '/boards/1/backlog/moves', { key, sprint: 'Sprint 1' });
    await api('POST', '/boards/1/backlog/moves', { key: dropped, sprint: 'backlog' });
    const page = await (await loggedIn('vic')).get('/boards/1/sprints/Sprint%201/report');
    expect(page.status).toBe(200);
    expect(summaryOf(page.text)).toBe('0 tickets when it started; 0 completed, 1 not completed, 2 added after the start, 1 removed.');
    const text = decodeEntities(page.text);
    expect(/id="not-completed"[\s\S]*?<\/table>/.exec(text)![0]).toContain(planned);
    expect(/id="removed"[\s\S]*?<\/table>/.exec(text)![0]).toContain(dropped);
    // the burndown starts on the day the file's sprint started
    expect(text).toContain('<td data-label="Day">2026-01-05</td>');
  });
});
