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
  - number: 3
    name: Core plan
    kind: scrum
    projects: [CORE]
    columns:
      - { name: Open, statuses: [To Do, In Progress] }
      - { name: Closed, statuses: [Done] }
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

describe('pages: a card carries a "Move to…" link; its form comes when asked, as a fragment or a page', () => {
  async function card(summary: string): Promise<string> {
    const lee = await service.token('lee@example.com');
    const created = await send(service, 'POST', '/api/v1/tickets', {
      headers: { authorization: `Bearer ${lee}` },
      json: { project: 'CORE', summary },
    });
    expect(created.status).toBe(201);
    return created.json.key as string;
  }

  it('puts a link on each card of the board, and no form', async () => {
    const key = await card('Linked, not carried');
    const page = await (await loggedIn(service, 'dev2')).get('/boards/1?sprint=none');
    const href = `/boards/1/moves/new?key=${key}&amp;sprint=none`;
    expect(page.text).toContain(
      `<a class="move" href="${href}" hx-get="${href}" hx-target="this" hx-swap="outerHTML">Move to…<span class="visually-hidden"> ${key}</span></a>`,
    );
    expect(page.text).not.toContain('name="to"');
  });

  it("shows the card's form as a page of its own, posting what the board's drop posts, back to the same view", async () => {
    const key = await card('Moved from its own page');
    const page = await (await loggedIn(service, 'dev2')).get(`/boards/1/moves/new?key=${key}&sprint=none`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<h1>Move ${key}</h1>`);
    expect(page.text).toContain('<form class="move" method="post" action="/boards/1/moves">');
    expect(page.text).toContain(`<input type="hidden" name="key" value="${key}"><input type="hidden" name="view" value="none">`);
    expect(page.text).toContain(`<select id="move-${key}" name="to" autofocus>`);
    expect(page.text).toContain('href="/boards/1?sprint=none">Back to the board</a>');
  });

  it("answers htmx with the form alone, to take the link's place", async () => {
    const key = await card('Moved in place');
    for (const path of [`/boards/1/moves/new?key=${key}`, `/boards/3/backlog/moves/new?key=${key}`]) {
      const fragment = await (await loggedIn(service, 'dev2')).get(path, { headers: { 'hx-request': 'true' } });
      expect(fragment.status).toBe(200);
      expect(fragment.text).toMatch(/^<form class="move" method="post" action="\/boards\/\d\/(backlog\/)?moves">/);
      expect(fragment.text).not.toContain('<html');
    }
  });

  it('puts a link on each ticket of the backlog, to its own page of the form', async () => {
    const key = await card('Planned from its own page');
    const client = await loggedIn(service, 'dev2');
    const backlog = await client.get('/boards/3/backlog');
    expect(backlog.text).toContain(`href="/boards/3/backlog/moves/new?key=${key}"`);
    expect(backlog.text).not.toContain('name="to"');
    const page = await client.get(`/boards/3/backlog/moves/new?key=${key}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form class="move" method="post" action="/boards/3/backlog/moves">');
    expect(page.text).toContain('href="/boards/3/backlog">Back to the backlog</a>');
  });

  it('answers as the board page would: 404 for a board the member cannot see, or a card not on it', async () => {
    const client = await loggedIn(service, 'dev2');
    for (const path of [
      '/boards/2/moves/new?key=HIDE-1',
      '/boards/2/backlog/moves/new?key=HIDE-1',
      '/boards/9/moves/new?key=CORE-1',
      '/boards/2147483648/moves/new?key=CORE-1',
    ]) {
      const page = await client.get(path);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain('Hidden board');
    }
    expect((await client.get('/boards/1/moves/new?key=CORE-99999')).status).toBe(404);
    expect((await client.get('/boards/3/backlog/moves/new?key=CORE-99999')).status).toBe(404);
    expect((await client.get('/boards/1/moves/new')).status).toBe(404);
  });

  it('sends a stranger to log in first', async () => {
    const path = '/boards/1/moves/new?key=CORE-1';
    expect((await new Browser(service).get(path)).location).toBe(`/login?return_to=${encodeURIComponent(path)}`);
  });
});
