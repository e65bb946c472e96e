import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

let service: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  service = await startTestService({ workspace: 'tickets-workspace.yaml' });
  for (const who of ['lee', 'dev1', 'dev2']) tokens[who] = await service.token(`${who}@example.com`);
  const make = (body: Record<string, unknown>) =>
    service.request('POST', '/api/v1/tickets', { token: tokens.lee, body: { project: 'TIX', ...body } });
  await make({ summary: 'Payment gateway rejects refunds', labels: ['payments'], priority: 'Low' });
  await make({ summary: 'Refund emails', description: 'The payment receipt is wrong', priority: 'High', assignee: 'Dev Two' });
  await make({ summary: 'Unrelated chore', fields: { story_points: 4711 } });
  for (let i = 0; i < 25; i += 1) await make({ summary: `Bulk item ${i}`, labels: ['bulk'] });
});
afterAll(() => service.close());

const search = async (query: string, who = 'lee') => service.request('GET', `/api/v1/tickets?${query}`, { token: tokens[who] });
const keys = async (query: string, who = 'lee') => (await search(query, who)).body.tickets.map((t: { key: string }) => t.key);
const summaries = async (query: string) => (await search(query)).body.tickets.map((t: { summary: string }) => t.summary);

describe('search: words and their beginnings', () => {
  it('matches the beginning of a word', async () => {
    expect(await summaries('query=refu')).toEqual(expect.arrayContaining(['Payment gateway rejects refunds', 'Refund emails']));
  });

  it('needs every word', async () => {
    expect(await summaries('query=paym%20gate')).toEqual(['Payment gateway rejects refunds']);
  });

  it('finds words in descriptions, labels, custom fields and comments', async () => {
    expect(await summaries('query=receipt')).toEqual(['Refund emails']);
    expect(await summaries('query=payments')).toContain('Payment gateway rejects refunds');
    expect(await summaries('query=4711')).toEqual(['Unrelated chore']);
    expect(await keys('query=staging')).toEqual(['TIX-1']);
  });

  it('always includes the ticket whose key is the query, first', async () => {
    const found = await keys('query=tix-3');
    expect(found[0]).toBe('TIX-3');
  });
});

describe('search: a query with neither a word nor a key finds nothing', () => {
  it('answers an empty page for punctuation alone, and words beside it still count', async () => {
    const punctuation = await search('query=%21%3F%20-%20%2A');
    expect(punctuation.status).toBe(200);
    expect(punctuation.body).toMatchObject({ total: 0, tickets: [] });
    expect(await summaries('query=%21receipt%3F')).toEqual(['Refund emails']);
  });
});

describe('search: words inside HTML-like text are words like any other', () => {
  it('finds `alert` in a comment holding <script>alert(1)</script>, and `bold` in a description with <b>bold</b>', async () => {
    const made = await service.request('POST', '/api/v1/tickets', {
      token: tokens.lee,
      body: { project: 'TIX', summary: 'Markup in text', description: 'Some <b>boldface</b> words' },
    });
    await service.request('POST', `/api/v1/tickets/${made.body.key}/comments`, {
      token: tokens.lee,
      body: { body: 'Try <script>alert(1)</script> in the title' },
    });
    expect(await keys('query=alert')).toEqual([made.body.key]);
    expect(await keys('query=boldface')).toEqual([made.body.key]);
  });
});

describe('search: relevance first with a query', () => {
  it('ranks a summary match above a description match', async () => {
    expect(await summaries('query=payment')).toEqual(['Payment gateway rejects refunds', 'Refund emails']);
  });
});

describe('search: reads the member’s own writes at once', () => {
  it('finds a comment the moment it is added', async () => {
    expect(await keys('query=kumquat')).toEqual([]);
    await service.request('POST', '/api/v1/tickets/TIX-3/comments', { token: tokens.lee, body: { body: 'kumquat smoothie' } });
    expect(await keys('query=kumquat')).toEqual(['TIX-3']);
  });

  it('finds a changed summary at once and forgets the old one', async () => {
    const key = (await service.request('POST', '/api/v1/tickets', { token: tokens.lee, body: { project: 'TIX', summary: 'Zanzibar' } }))
      .body.key;
    await service.request('PATCH', `/api/v1/tickets/${key}`, { token: tokens.lee, body: { summary: 'Madagascar' } });
    expect(await keys('query=zanzibar')).toEqual([]);
    expect(await keys('query=madagascar')).toEqual([key]);
  });
});

describe('search: filters', () => {
  it('filters by status category, open meaning not done', async () => {
    expect(await keys('project=TIX&status=done')).toEqual(['TIX-4']);
    expect(await keys('project=TIX&status=open&limit=100')).not.toContain('TIX-4');
    expect(await keys('project=TIX&status=in_progress&sort=key')).toEqual(['TIX-1', 'TIX-5']);
  });

  it('filters by assignee (me, unassigned, a person) and reporter', async () => {
    expect(await keys('assignee=me', 'dev1')).toEqual(['TIX-1']);
    expect(await summaries('assignee=Dev%20Two')).toEqual(['Refund emails']);
    expect(await keys('reporter=Dev%20One')).toEqual(['TIX-3']);
    expect((await search('assignee=unassigned&limit=100')).body.tickets.every((t: { assignee: unknown }) => t.assignee === null)).toBe(
      true,
    );
  });

  it('filters by label, type and project', async () => {
    expect((await search('label=bulk')).body.total).toBe(25);
    expect(await keys('type=bug')).toEqual(expect.arrayContaining(['TIX-1', 'TIX-4']));
    expect(await keys('project=other')).toEqual(['OTHER-1']);
  });

  it('refuses a project that matches nothing, listing the keys', async () => {
    const reply = await search('project=NOPE');
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toContain('"TIX"');
  });

  it('refuses a type or a label that no searched project has, listing those that exist (like every name)', async () => {
    const type = await search('type=Bgu');
    expect(type.status).toBe(422);
    expect(type.body.error.message).toMatch(/^\/type: no ticket type "Bgu"; ticket types are .*"Bug"/);
    const label = await search('label=bulkk');
    expect(label.status).toBe(422);
    expect(label.body.error.message).toMatch(/^\/label: no label "bulkk"; labels are .*"bulk"/);
    expect((await search('project=TIX&label=Bulk')).body.total).toBe(25);
  });
});

describe('search: sorts', () => {
  it('sorts by key', async () => {
    expect(await keys('project=TIX&sort=key&limit=4')).toEqual(['TIX-1', 'TIX-2', 'TIX-3', 'TIX-4']);
  });

  it('sorts by priority, highest first', async () => {
    const found = await summaries('query=refund&sort=priority');
    expect(found).toEqual(['Refund emails', 'Payment gateway rejects refunds']);
  });

  it('sorts by priority without a query, and by key with one', async () => {
    const order = ['High', 'Medium', 'Low', null];
    const found = (await search('project=TIX&sort=priority&limit=100')).body.tickets.map((t: { priority: string | null }) =>
      order.indexOf(t.priority),
    );
    expect(found).toContain(0);
    expect(found).toContain(2);
    expect(found).toEqual([...found].sort((a, b) => a - b));
    const byKey = await keys('query=refund&sort=key');
    expect(byKey).toHaveLength(2);
    expect(byKey).toEqual([...byKey].sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1])));
  });

  it('sorts by most recently updated without a query', async () => {
    const dates = (await search('limit=10')).body.tickets.map((t: { updated_at: string }) => t.updated_at);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('sorts by created', async () => {
    expect(await summaries('label=bulk&sort=created&limit=1')).toEqual(['Bulk item 24']);
  });
});

describe('search: limit 1 to 100, default 20, and offset', () => {
  it('pages with limit and offset and reports the total', async () => {
    const first = (await search('label=bulk')).body;
    expect(first).toMatchObject({ total: 25, limit: 20, offset: 0 });
    expect(first.tickets).toHaveLength(20);
    const second = (await search('label=bulk&offset=20')).body;
    expect(second.tickets).toHaveLength(5);
    expect(new Set([...first.tickets, ...second.tickets].map((t: { key: string }) => t.key)).size).toBe(25);
    expect((await search('label=bulk&offset=40')).body).toMatchObject({ total: 25, tickets: [] });
  });

  it.each(['limit=0', 'limit=101', 'offset=-1', 'limit=ten', 'sort=random', 'status=closed'])('refuses %s with 422', async (query) => {
    const reply = await search(query);
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('invalid');
  });

  it('answers summaries with every field', async () => {
    const [ticket] = (await search('query=TIX-1')).body.tickets;
    expect(Object.keys(ticket).sort()).toEqual([
      'assignee',
      'key',
      'labels',
      'priority',
      'project',
      'status',
      'summary',
      'type',
      'updated_at',
      'url',
    ]);
  });
});

describe('search: every comment a member may read stays searchable as the ticket changes', () => {
  const write = (method: 'POST' | 'PUT' | 'PATCH', path: string, body: Record<string, unknown>) =>
    service.request(method, `/api/v1${path}`, { token: tokens.lee, body });

  it('finds the words of each new comment, of one made with a transition and of one made with an assignment', async () => {
    const key = (await write('POST', '/tickets', { project: 'TIX', summary: 'Many voices' })).body.key;
    for (const word of ['wallaby', 'wombat', 'bilby'])
      expect((await write('POST', `/tickets/${key}/comments`, { body: `Saw a ${word} today` })).status).toBe(201);
    expect(
      (await write('POST', `/tickets/${key}/transitions`, { transition: 'Start', comment: 'Started after the dingo left' })).status,
    ).toBe(200);
    expect((await write('PUT', `/tickets/${key}/assignee`, { assignee: 'Dev Two', comment: 'Over to you, echidna expert' })).status).toBe(
      200,
    );
    for (const word of ['wallaby', 'wombat', 'bilby', 'dingo', 'echidna']) expect(await keys(`query=${word}`)).toEqual([key]);
  });

  it('keeps the words of earlier comments when the summary changes, and forgets only the old summary', async () => {
    const key = (await write('POST', '/tickets', { project: 'TIX', summary: 'Platypus sighting' })).body.key;
    await write('POST', `/tickets/${key}/comments`, { body: 'The cassowary came first' });
    await write('PATCH', `/tickets/${key}`, { summary: 'Kookaburra sighting' });
    await write('POST', `/tickets/${key}/comments`, { body: 'Then the kangaroo' });
    expect(await keys('query=platypus')).toEqual([]);
    for (const word of ['kookaburra', 'cassowary', 'kangaroo']) expect(await keys(`query=${word}`)).toEqual([key]);
  });

  it('keeps the workspace file’s comments, internal notes included, when a comment is added, and restricted ones still only for those who may read them', async () => {
    await write('POST', '/tickets/TIX-1/comments', { body: 'A numbat was here' });
    for (const word of ['numbat', 'staging', 'enterprise']) expect(await keys(`query=${word}`, 'dev2')).toEqual(['TIX-1']);
    expect(await keys('query=zeppelin', 'lee')).toEqual(['TIX-1']);
    expect(await keys('query=zeppelin', 'dev2')).toEqual([]);
  });
});

describe('search: a query’s matches are paged and sorted like any list', () => {
  it('pages the matches of a query with limit and offset, with their total on every page', async () => {
    const pages = await Promise.all([0, 10, 20].map(async (offset) => (await search(`query=bulk&limit=10&offset=${offset}`)).body));
    expect(pages.map((p) => [p.total, p.tickets.length])).toEqual([
      [25, 10],
      [25, 10],
      [25, 5],
    ]);
    const found = pages.flatMap((p) => p.tickets.map((t: { summary: string }) => t.summary));
    expect(new Set(found).size).toBe(25);
    expect((await search('query=bulk&offset=30')).body).toMatchObject({ total: 25, tickets: [] });
  });

  it('sorts a query’s matches by most recently updated', async () => {
    const dates = (await search('query=bulk&sort=updated&limit=25')).body.tickets.map((t: { updated_at: string }) => t.updated_at);
    expect(dates).toHaveLength(25);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('orders matches of equal relevance most recently updated first', async () => {
    expect(await summaries('query=bulk&limit=3')).toEqual(['Bulk item 24', 'Bulk item 23', 'Bulk item 22']);
  });
});

describe('search: a query’s filters and order follow each change to a ticket at once', () => {
  const write = (method: 'POST' | 'PUT' | 'PATCH', path: string, body: Record<string, unknown>) =>
    service.request(method, `/api/v1${path}`, { token: tokens.lee, body });

  it('filters a query’s matches by the status a transition gave and the assignee an assignment gave', async () => {
    const key = (await write('POST', '/tickets', { project: 'TIX', summary: 'Marsupial census' })).body.key;
    expect(await keys('query=marsupial&status=todo')).toEqual([key]);
    expect(await keys('query=marsupial&assignee=unassigned')).toEqual([key]);
    expect((await write('POST', `/tickets/${key}/transitions`, { transition: 'Start' })).status).toBe(200);
    expect((await write('PUT', `/tickets/${key}/assignee`, { assignee: 'Dev Two' })).status).toBe(200);
    expect(await keys('query=marsupial&status=todo')).toEqual([]);
    expect(await keys('query=marsupial&status=in_progress')).toEqual([key]);
    expect(await keys('query=marsupial&assignee=unassigned')).toEqual([]);
    expect(await keys('query=marsupial&assignee=Dev%20Two&status=open')).toEqual([key]);
    expect(await keys('query=marsupial&assignee=me', 'dev2')).toEqual([key]);
  });

  it('puts the ticket changed last first among matches of equal relevance, and in the updated order', async () => {
    const first = (await write('POST', '/tickets', { project: 'TIX', summary: 'Bandicoot survey' })).body.key;
    const second = (await write('POST', '/tickets', { project: 'TIX', summary: 'Bandicoot survey' })).body.key;
    expect(await keys('query=bandicoot')).toEqual([second, first]);
    expect((await write('PATCH', `/tickets/${first}`, { priority: 'High' })).status).toBe(200);
    expect(await keys('query=bandicoot')).toEqual([first, second]);
    expect(await keys('query=bandicoot&sort=updated')).toEqual([first, second]);
  });
});
