import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { documentRebuilt, documentWords } from './search-document.ts';

let service: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  service = await startTestService({ workspace: 'tickets-workspace.yaml' });
  for (const who of ['ada', 'lee', 'dev1', 'dev2', 'vic', 'olga'])
    tokens[who] = await service.token(`${who}@example.com`, 'write', `${who}'s agent`);
});
afterAll(() => service.close());

const call = (who: string, method: string, path: string, body?: unknown) =>
  service.request(method, `/api/v1${path}`, { token: tokens[who], body });
const create = (who: string, body: Record<string, unknown>) => call(who, 'POST', '/tickets', { project: 'TIX', ...body });
const ticketCount = async () =>
  Number(
    (
      await service.db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const history = (key: string) =>
  service.db
    .selectFrom('history as h')
    .innerJoin('tickets as t', 't.id', 'h.entity_id')
    .select(['h.kind', 'h.changes', 'h.actor_id', 'h.via'])
    .where('t.key', '=', key)
    .orderBy('h.at')
    .execute();
const notifications = (key: string) =>
  service.db
    .selectFrom('notifications as n')
    .innerJoin('tickets as t', 't.id', 'n.entity_id')
    .innerJoin('members as m', 'm.id', 'n.member_id')
    .select(['m.username', 'n.kind', 'n.payload'])
    .where('t.key', '=', key)
    .execute();

describe('create: the member becomes reporter and watcher; defaults fill what is left out', () => {
  it('creates a ticket with 201, the first type, the default priority and the first status', async () => {
    const { status, body } = await create('dev1', { summary: 'Add a health endpoint', description: 'Use **GFM**' });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      project: 'TIX',
      type: 'Task',
      priority: 'Medium',
      status: { name: 'To Do', category: 'todo' },
      reporter: { name: 'Dev One' },
      assignee: null,
      description: { format: 'markdown', text: 'Use **GFM**' },
    });
    expect(body.key).toMatch(/^TIX-\d+$/);
    expect(body).not.toHaveProperty('comments');
    expect(body).not.toHaveProperty('transitions');
    const [entry] = await history(body.key);
    expect(entry).toMatchObject({ kind: 'created', via: "dev1's agent" });
  });

  it('adds new labels to the project, lowercased with hyphens', async () => {
    const { body } = await create('dev1', { summary: 'Label me', labels: ['Backend', 'Needs Design'] });
    expect(body.labels).toEqual(['backend', 'needs-design']);
    const project = await call('dev1', 'GET', '/projects/TIX');
    expect(project.body.labels).toContain('needs-design');
  });

  it('adds no label when the create is refused (its labels are written with the ticket, after every check)', async () => {
    const refused = await create('dev1', { summary: 'Refused', labels: ['refused-label'], priority: 'Urgentest' });
    expect(refused.status).toBe(422);
    expect((await call('dev1', 'GET', '/projects/TIX')).body.labels).not.toContain('refused-label');
    const accepted = await create('dev1', { summary: 'Accepted', labels: ['refused-label'] });
    expect(accepted.body.labels).toEqual(['refused-label']);
    expect((await call('dev1', 'GET', '/projects/TIX')).body.labels).toContain('refused-label');
  });

  it("falls to the component's default assignee when none is given", async () => {
    const { body } = await create('lee', { summary: 'Web thing', components: ['web'] });
    expect(body.components).toEqual(['Web']);
    expect(body.assignee).toMatchObject({ name: 'Dev Two' });
  });

  it('ignores an assignee from a member without ticket:assign rather than refusing', async () => {
    const { status, body } = await create('dev1', { summary: 'Assign attempt', assignee: 'Dev Two' });
    expect(status).toBe(201);
    expect(body.assignee).toBeNull();
  });

  it('takes an assignee by email address from a member with ticket:assign', async () => {
    const { body } = await create('lee', { summary: 'Assigned by email', assignee: 'DEV2@example.com' });
    expect(body.assignee).toMatchObject({ name: 'Dev Two' });
  });

  it('refuses a parent in another project with parent_not_found', async () => {
    const reply = await create('lee', { summary: 'Orphan', parent: 'OTHER-1' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('parent_not_found');
    const ok = await create('lee', { summary: 'Child', parent: 'tix-1' });
    expect(ok.body.parent).toBe('TIX-1');
  });

  it('needs ticket:create: a viewer is refused with 403; to an outsider the project is a name that matches nothing (422)', async () => {
    expect((await create('vic', { summary: 'Nope' })).status).toBe(403);
    const outsider = await create('olga', { summary: 'Nope' });
    expect(outsider.status).toBe(422);
    expect(outsider.body.error.message).toMatch(/^\/project: no project "TIX"; projects are /);
  });

  it('names the projects the member can see when the key matches none, as the search filter does', async () => {
    const created = await create('lee', { project: 'NOPE', summary: 'Nowhere' });
    const searched = await call('lee', 'GET', '/tickets?project=NOPE');
    expect(created.status).toBe(422);
    expect(created.body.error.message).toBe(searched.body.error.message);
  });
});

describe('create: the history, the notifications and search name the key the ticket was given', () => {
  it('records `created` with the key first, tells the assignee and a mentioned member under that key, and finds the ticket by it', async () => {
    const { status, body } = await create('lee', {
      summary: 'Keyed everywhere',
      assignee: 'Dev Two',
      labels: ['Backend'],
      description: 'For @dev1, see `@vic`',
    });
    expect(status).toBe(201);
    const [entry] = await history(body.key);
    expect(entry).toMatchObject({ kind: 'created', changes: [{ field: 'key', from: null, to: body.key }], via: "lee's agent" });
    const by = { id: expect.any(String), name: expect.any(String) };
    const sent = (await notifications(body.key)).sort((a, b) => a.username.localeCompare(b.username));
    expect(sent).toEqual([
      {
        username: 'dev1',
        kind: 'mentioned',
        payload: { key: body.key, by, via: "lee's agent", summary: 'Keyed everywhere', event: 'created' },
      },
      { username: 'dev2', kind: 'created', payload: { key: body.key, by, via: "lee's agent", summary: 'Keyed everywhere' } },
    ]);
    const found = await call('lee', 'GET', `/tickets?query=${body.key}`);
    expect(found.body.tickets.map((t: { key: string }) => t.key)).toContain(body.key);
    const number = await call('lee', 'GET', `/tickets?query=${body.key.split('-')[1]}&project=TIX`);
    expect(number.body.tickets.map((t: { key: string }) => t.key)).toContain(body.key);
    // the document the create wrote with the key it was numbered is the one a rebuild would write
    const rebuilt = await sql<{
      same: boolean;
    }>`select search_vector = ticket_search_document(id) as same from tickets where key = ${body.key}`.execute(service.db);
    expect(rebuilt.rows).toEqual([{ same: true }]);
  });

  it('answers, records and indexes the labels, components and custom fields it wrote with the ticket, as a later read finds them', async () => {
    const created = await create('lee', {
      summary: 'Everything at once',
      type: 'Bug',
      labels: ['zeta-words', 'Alpha Words', 'middle'],
      components: ['web', 'API'],
      fields: { severity: 'critical', platforms: ['linux', 'Windows'], customer_due: '2026-12-01', story_points: '5', reviewer: 'Dev One' },
    });
    expect(created.status).toBe(201);
    const read = await call('lee', 'GET', `/tickets/${created.body.key}`);
    // the detail's lists (comments, transitions, links, subtasks, worklogs) are a GET's alone
    const shown = Object.fromEntries(Object.keys(created.body).map((k) => [k, read.body[k]]));
    expect(created.body).toEqual(shown);
    expect(
      Object.keys(read.body)
        .filter((k) => !(k in created.body))
        .sort(),
    ).toEqual(['comments', 'links', 'subtasks', 'transitions', 'worklogs']);
    expect(shown).toMatchObject({
      labels: ['alpha-words', 'middle', 'zeta-words'],
      components: ['API', 'Web'],
      assignee: { name: 'Dev Two' },
    });
    expect(shown.fields).toEqual({
      severity: 'Critical',
      story_points: '5',
      customer_due: '2026-12-01',
      platforms: 'Linux, Windows',
      reviewer: 'Dev One',
    });
    const [entry] = await history(created.body.key);
    expect(entry!.changes[0]).toEqual({ field: 'key', from: null, to: created.body.key });
    expect(entry!.changes.slice(1)).toHaveLength(5);
    expect(entry!.changes.slice(1)).toEqual(
      expect.arrayContaining(Object.entries(shown.fields).map(([field, to]) => ({ field, from: null, to }))),
    );
    expect((await notifications(created.body.key)).map((n) => [n.username, n.kind])).toEqual([['dev2', 'created']]);
    const rebuilt = await sql<{
      same: boolean;
    }>`select search_vector = ticket_search_document(id) as same from tickets where key = ${created.body.key}`.execute(service.db);
    expect(rebuilt.rows).toEqual([{ same: true }]);
    for (const word of ['zeta', 'alpha', 'windows']) {
      const found = await call('lee', 'GET', `/tickets?query=${word}&project=TIX`);
      expect(found.body.tickets.map((t: { key: string }) => t.key)).toContain(created.body.key);
    }
  });
});

describe('names: a name matching nothing lists the candidates', () => {
  it.each([
    [{ type: 'Storyy' }, '/type: no ticket type "Storyy"', '"Task", "Bug", "Chore", "Sub-task"'],
    [{ priority: 'Urgent' }, '/priority: no priority "Urgent"', '"High", "Medium", "Low"'],
    [{ components: ['Mobile'] }, '/components/0: no component "Mobile"', '"API", "Web"'],
  ])('%j is 422 listing what would have matched', async (extra, start, listed) => {
    const before = await ticketCount();
    const reply = await create('lee', { summary: 'Named', ...extra });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('invalid');
    expect(reply.body.error.message).toContain(start);
    expect(reply.body.error.message).toContain(listed);
    expect(await ticketCount()).toBe(before);
  });

  it('lists assignable people for an unknown assignee', async () => {
    const reply = await call('lee', 'PUT', '/tickets/TIX-3/assignee', { assignee: 'Nobody Here' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toContain('"Dev One"');
  });
});

describe('custom fields: checked before anything is written', () => {
  it('creates nothing for a key the type has no field for, and lists the keys', async () => {
    const before = await ticketCount();
    const reply = await create('lee', { summary: 'Typo', type: 'Task', fields: { severty: 'High' } });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toContain('/fields: no custom field "severty"');
    expect(reply.body.error.message).toContain('"story_points"');
    expect(await ticketCount()).toBe(before);
  });

  it('creates nothing for a value the field does not take, and lists the choices', async () => {
    const before = await ticketCount();
    const reply = await create('lee', { summary: 'Bad choice', type: 'Bug', fields: { severity: 'Blocker' } });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toContain('/fields/severity');
    expect(reply.body.error.message).toContain('"Low", "High", "Critical"');
    expect(await ticketCount()).toBe(before);
  });

  it('takes choices by their words, lists, dates, numbers as strings and people', async () => {
    const { status, body } = await create('lee', {
      summary: 'All fields',
      type: 'Bug',
      fields: { severity: 'critical', platforms: ['linux', 'Windows'], customer_due: '2026-12-01', story_points: '5', reviewer: 'me' },
    });
    expect(status).toBe(201);
    expect(body.fields).toEqual({
      severity: 'Critical',
      story_points: '5',
      customer_due: '2026-12-01',
      platforms: 'Linux, Windows',
      reviewer: 'Lee Lead',
    });
  });

  it('refuses a date that is not YYYY-MM-DD', async () => {
    const reply = await create('lee', { summary: 'Bad date', fields: { customer_due: '01/12/2026' } });
    expect(reply.status).toBe(422);
  });
});

describe('custom fields: a value is accepted as the API answers it, for every kind of field', () => {
  it('takes back `fields` exactly as GET answered them, and changes nothing', async () => {
    const created = await create('lee', {
      summary: 'Round trip',
      type: 'Bug',
      fields: { severity: 'High', platforms: ['linux', 'macos'], customer_due: '2026-12-01', story_points: 2.5, reviewer: 'Lee Lead' },
    });
    expect(created.status).toBe(201);
    const { fields } = (await call('lee', 'GET', `/tickets/${created.body.key}`)).body;
    expect(fields).toEqual({
      severity: 'High',
      story_points: '2.5',
      customer_due: '2026-12-01',
      platforms: 'Linux, macOS',
      reviewer: 'Lee Lead',
    });
    const before = await history(created.body.key);
    const sentBack = await call('lee', 'PATCH', `/tickets/${created.body.key}`, { fields });
    expect(sentBack.status).toBe(200);
    expect(sentBack.body.fields).toEqual(fields);
    expect(await history(created.body.key)).toHaveLength(before.length);
  });

  it('reads a multi-value field written as the page shows it, "Linux, Windows", as its two choices', async () => {
    const reply = await create('lee', { summary: 'Two platforms', fields: { platforms: 'Linux, Windows' } });
    expect(reply.status).toBe(201);
    expect(reply.body.fields.platforms).toBe('Linux, Windows');
  });

  it('still names the part that is not a choice', async () => {
    const reply = await create('lee', { summary: 'Bad platform', fields: { platforms: 'Linux, BeOS' } });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toContain('/fields/platforms');
    expect(reply.body.error.message).toContain('"BeOS"');
  });
});

describe('change: only what is sent changes, in one history entry (custom fields a second)', () => {
  it('changes the fields sent and leaves the rest', async () => {
    const created = (await create('lee', { summary: 'Before', labels: ['a', 'b'], description: 'text' })).body;
    const { status, body } = await call('lee', 'PATCH', `/tickets/${created.key}`, {
      summary: 'After',
      priority: 'High',
      fields: { story_points: 3 },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      summary: 'After',
      priority: 'High',
      labels: ['a', 'b'],
      description: { text: 'text' },
      fields: { story_points: '3' },
    });
    const entries = await history(created.key);
    expect(entries.map((e) => e.kind)).toEqual(['created', 'updated', 'fields']);
    expect(entries[1]!.changes).toEqual([
      { field: 'summary', from: 'Before', to: 'After' },
      { field: 'priority', from: 'Medium', to: 'High' },
    ]);
    expect(entries[2]!.changes).toEqual([{ field: 'story_points', from: null, to: '3' }]);
  });

  it('removes every label with []', async () => {
    const created = (await create('lee', { summary: 'Labels', labels: ['x'] })).body;
    const { body } = await call('lee', 'PATCH', `/tickets/${created.key}`, { labels: [] });
    expect(body.labels).toEqual([]);
  });

  it('replaces the labels everywhere the ticket shows them: its detail, a search, a label filter', async () => {
    const created = (await create('lee', { summary: 'Relabelled quokka', labels: ['kept-one', 'dropped-one'] })).body;
    expect(created.labels).toEqual(['dropped-one', 'kept-one']);
    const { body } = await call('lee', 'PATCH', `/tickets/${created.key}`, { labels: ['kept-one', 'Added One'] });
    expect(body.labels).toEqual(['added-one', 'kept-one']);
    expect((await call('lee', 'GET', `/tickets/${created.key}`)).body.labels).toEqual(['added-one', 'kept-one']);
    const found = (await call('lee', 'GET', '/tickets?query=quokka')).body.tickets.find((t: { key: string }) => t.key === created.key);
    expect(found.labels).toEqual(['added-one', 'kept-one']);
    expect((await call('lee', 'GET', '/tickets?label=added-one')).body.tickets.map((t: { key: string }) => t.key)).toEqual([created.key]);
    expect((await call('lee', 'GET', '/tickets?label=dropped-one')).body.tickets).toEqual([]);

    const elsewhere = (
      await call('lee', 'POST', '/tickets', { project: 'OTHER', summary: 'Same label, other project', labels: ['kept-one'] })
    ).body;
    const labelled = async (query: string) =>
      (await call('lee', 'GET', `/tickets?${query}`)).body.tickets.map((t: { key: string }) => t.key).sort();
    expect(await labelled('label=kept-one')).toEqual([elsewhere.key, created.key].sort());
    expect(await labelled('project=OTHER&label=kept-one')).toEqual([elsewhere.key]);
    expect(await labelled('project=TIX&label=kept-one')).toEqual([created.key]);

    // both projects have the label now: each create is given its own project's, from the structure store
    const again = (await create('lee', { summary: 'Same label, this project again', labels: ['kept-one'] })).body;
    const elsewhereAgain = (
      await call('lee', 'POST', '/tickets', { project: 'OTHER', summary: 'Same label, other project again', labels: ['kept-one'] })
    ).body;
    expect(await labelled('project=OTHER&label=kept-one')).toEqual([elsewhere.key, elsewhereAgain.key].sort());
    expect(await labelled('project=TIX&label=kept-one')).toEqual([created.key, again.key].sort());
  });

  it('changes the type only to one whose workflow has the current status', async () => {
    const started = (await create('lee', { summary: 'Typed' })).body;
    await call('lee', 'POST', `/tickets/${started.key}/transitions`, { transition: 'Start' });
    expect((await call('lee', 'PATCH', `/tickets/${started.key}`, { type: 'Bug' })).body.type).toBe('Bug');
    const chore = await call('lee', 'PATCH', `/tickets/${started.key}`, { type: 'Chore' });
    expect(chore.body.status.name).toBe('In Progress');
    const fresh = (await create('lee', { summary: 'Typed 2' })).body;
    const refused = await call('lee', 'PATCH', `/tickets/${fresh.key}`, { type: 'Chore' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('status_not_in_workflow');
  });

  it('lets a member with ticket:edit_own edit a ticket they reported, and no other', async () => {
    const own = (await create('dev2', { summary: 'Mine' })).body;
    expect((await call('dev2', 'PATCH', `/tickets/${own.key}`, { summary: 'Still mine' })).status).toBe(200);
    const other = await call('dev2', 'PATCH', '/tickets/TIX-3', { summary: 'Not mine' });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('forbidden');
  });

  it('replaces an imported wiki text with Markdown; the history keeps the original', async () => {
    const { body } = await call('lee', 'PATCH', '/tickets/TIX-1', { description: '## Steps\n1. Open it' });
    expect(body.description).toEqual({ format: 'markdown', text: '## Steps\n1. Open it' });
    const last = (await history('TIX-1')).at(-1)!;
    expect(last.changes[0]).toMatchObject({ field: 'description', from: { format: 'imported_wiki' } });
    expect((last.changes[0]!.from as { text: string }).text).toContain('h2. Steps');
  });
});

describe('change: the watchers are told, a new assignee among them, and a member mentioned in the description', () => {
  it('notifies each watcher but the member once, a mentioned one as mentioned, and search finds the new words', async () => {
    const ticket = (await create('dev1', { summary: 'Before the change' })).body;
    const { status, body } = await call('lee', 'PATCH', `/tickets/${ticket.key}`, {
      summary: 'Wombat after the change',
      assignee: 'Dev Two',
      description: 'Over to @dev1 as well',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ summary: 'Wombat after the change', assignee: { name: 'Dev Two' } });
    const sent = (await notifications(ticket.key)).sort((a, b) => a.username.localeCompare(b.username));
    expect(sent.map((n) => [n.username, n.kind])).toEqual([
      ['dev1', 'mentioned'],
      ['dev2', 'updated'],
    ]);
    expect(sent[1]!.payload).toMatchObject({ key: ticket.key, changes: ['summary', 'description', 'assignee'], via: "lee's agent" });
    expect(sent[0]!.payload).toMatchObject({ key: ticket.key, event: 'updated' });
    const found = (await call('lee', 'GET', '/tickets?query=wombat')).body.tickets.map((t: { key: string }) => t.key);
    expect(found).toEqual([ticket.key]);
  });

  it('changes nothing, tells no one and records nothing for a change that changes nothing', async () => {
    const ticket = (await create('dev1', { summary: 'Unchanged' })).body;
    const { status, body } = await call('lee', 'PATCH', `/tickets/${ticket.key}`, { summary: 'Unchanged' });
    expect(status).toBe(200);
    expect(body.updated_at).toBe(ticket.updated_at);
    expect(await notifications(ticket.key)).toEqual([]);
    expect((await history(ticket.key)).map((e) => e.kind)).toEqual(['created']);
  });
});

const found = async (word: string, key: string) =>
  (await call('lee', 'GET', `/tickets?query=${word}&project=TIX`)).body.tickets.some((t: { key: string }) => t.key === key);

describe('change: the search document takes in the words a change wrote, and only a change of its words rewrites it', () => {
  it('takes in a new summary, labels, custom field values and description, and forgets the old summary', async () => {
    const { key } = (await create('lee', { summary: 'Wombat burrow', type: 'Bug' })).body;
    const change = async (body: Record<string, unknown>) => expect((await call('lee', 'PATCH', `/tickets/${key}`, body)).status).toBe(200);
    await change({ summary: 'Echidna burrow' });
    expect([await found('echidna', key), await found('wombat', key), await documentRebuilt(service.db, key)]).toEqual([true, false, true]);
    await change({ labels: ['numbat-nest'] });
    expect([await found('numbat', key), await documentRebuilt(service.db, key)]).toEqual([true, true]);
    await change({ fields: { severity: 'Critical' } });
    expect([(await documentWords(service.db, key)).includes('critical'), await documentRebuilt(service.db, key)]).toEqual([true, true]);
    await change({ description: 'Quoll tracks near the gate' });
    expect([await found('quoll', key), await documentRebuilt(service.db, key)]).toEqual([true, true]);
  });

  it('keeps the document of a change that writes none of its words, and still marks the ticket updated', async () => {
    const { key } = (await create('lee', { summary: 'Platypus pond', labels: ['wet'] })).body;
    await call('lee', 'POST', `/tickets/${key}/comments`, { body: 'kookaburra laughing' });
    const before = (await call('lee', 'GET', `/tickets/${key}`)).body.updated_at;
    const changed = await call('lee', 'PATCH', `/tickets/${key}`, {
      priority: 'High',
      assignee: 'dev2@example.com',
      due_date: '2027-01-31',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.updated_at > before).toBe(true);
    expect([await found('platypus', key), await found('kookaburra', key), await documentRebuilt(service.db, key)]).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('takes in the comment of an assignment, and keeps the document of one without', async () => {
    const { key } = (await create('lee', { summary: 'Dingo fence' })).body;
    await call('lee', 'PUT', `/tickets/${key}/assignee`, { assignee: 'dev1@example.com' });
    expect(await documentRebuilt(service.db, key)).toBe(true);
    await call('lee', 'PUT', `/tickets/${key}/assignee`, { assignee: 'dev2@example.com', comment: 'cassowary crossing' });
    expect([await found('cassowary', key), await found('dingo', key), await documentRebuilt(service.db, key)]).toEqual([true, true, true]);
  });
});

describe('assignee: present assignee always accepted, others must be assignable', () => {
  it('refuses someone outside assignable people with not_assignable', async () => {
    const reply = await call('lee', 'PUT', '/tickets/TIX-3/assignee', { assignee: 'vic@example.com' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('not_assignable');
  });

  it('assigns by me, display name or id, and unassigns with null', async () => {
    expect((await call('lee', 'PUT', '/tickets/TIX-3/assignee', { assignee: 'me' })).body.assignee.name).toBe('Lee Lead');
    const dev1 = (await call('dev1', 'GET', '/me')).body.user.id;
    expect((await call('lee', 'PUT', '/tickets/TIX-3/assignee', { assignee: dev1 })).body.assignee.name).toBe('Dev One');
    expect((await call('lee', 'PUT', '/tickets/TIX-3/assignee', { assignee: null })).body.assignee).toBeNull();
  });

  it('needs ticket:assign', async () => {
    expect((await call('dev1', 'PUT', '/tickets/TIX-3/assignee', { assignee: 'me' })).status).toBe(403);
  });

  it('sends an assignment with a comment to each watcher as one notification; the new assignee watches and is told too', async () => {
    const ticket = (await create('dev1', { summary: 'Watch me' })).body;
    await call('lee', 'PUT', `/tickets/${ticket.key}/assignee`, { assignee: 'Dev Two', comment: 'Over to you' });
    const sent = await notifications(ticket.key);
    expect(sent.map((n) => n.username).sort()).toEqual(['dev1', 'dev2']);
    for (const one of sent) expect(one).toMatchObject({ kind: 'assigned', payload: { comment: 'Over to you' } });
    const detail = (await call('lee', 'GET', `/tickets/${ticket.key}`)).body;
    expect(detail.comments.map((c: { body: { text: string } }) => c.body.text)).toEqual(['Over to you']);
  });
});

describe('comments: timed now, internal notes, @mentions notify', () => {
  it('adds a comment with 201 and its time is now', async () => {
    const before = Date.now();
    const { status, body } = await call('dev1', 'POST', '/tickets/TIX-3/comments', { body: 'Looks good' });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      author: { name: 'Dev One' },
      body: { format: 'markdown', text: 'Looks good' },
      visibility: 'public',
      edited_at: null,
    });
    expect(Date.parse(body.created_at)).toBeGreaterThanOrEqual(before - 5000);
  });

  it('makes an internal note with internal: true', async () => {
    const { body } = await call('dev1', 'POST', '/tickets/TIX-3/comments', { body: 'Between us', internal: true });
    expect(body.visibility).toBe('internal');
  });

  it('notifies a mentioned member, but not a mention inside code', async () => {
    const ticket = (await create('lee', { summary: 'Mentions' })).body;
    await call('lee', 'POST', `/tickets/${ticket.key}/comments`, { body: 'Ping @dev2, not `@vic`' });
    const sent = await notifications(ticket.key);
    expect(sent.map((n) => [n.username, n.kind])).toEqual([['dev2', 'mentioned']]);
  });

  it.each([
    ['two names, cased as they like', 'Ping @DEV1 and @dev2'],
    ['nine names, most of them no one', 'Ping @dev1 @n1 @n2 @n3 @n4 @n5 @n6 @n7 and @Dev2'],
  ])('notifies each member mentioned among %s, and not the member who wrote it', async (_, text) => {
    const ticket = (await create('lee', { summary: 'Many mentions' })).body;
    await call('lee', 'POST', `/tickets/${ticket.key}/comments`, { body: `${text}, @lee` });
    const sent = await notifications(ticket.key);
    expect(sent.map((n) => [n.username, n.kind]).sort()).toEqual([
      ['dev1', 'mentioned'],
      ['dev2', 'mentioned'],
    ]);
  });

  it('notifies a member mentioned through a character reference (`&#64;dev2`), as Markdown reads it', async () => {
    const ticket = (await create('lee', { summary: 'Referenced mention' })).body;
    await call('lee', 'POST', `/tickets/${ticket.key}/comments`, { body: 'Ping &#64;dev2' });
    const sent = await notifications(ticket.key);
    expect(sent.map((n) => [n.username, n.kind])).toEqual([['dev2', 'mentioned']]);
  });

  it('notifies watchers except the member who commented', async () => {
    const ticket = (await create('dev1', { summary: 'Watched' })).body;
    await call('dev1', 'POST', `/tickets/${ticket.key}/comments`, { body: 'my own' });
    expect(await notifications(ticket.key)).toEqual([]);
    await call('lee', 'POST', `/tickets/${ticket.key}/comments`, { body: 'from lee' });
    expect((await notifications(ticket.key)).map((n) => [n.username, n.kind])).toEqual([['dev1', 'commented']]);
  });

  it('needs ticket:comment', async () => {
    expect((await call('vic', 'POST', '/tickets/TIX-3/comments', { body: 'hi' })).status).toBe(403);
  });

  it('keeps the search document a rebuild would write, comment after comment', async () => {
    const ticket = (await create('lee', { summary: 'Talked about', labels: ['Backend'], description: 'Some <b>text</b>' })).body;
    for (const body of ['first words', 'second, with `code` and @dev2', 'Between us', 'third words again']) {
      await call('lee', 'POST', `/tickets/${ticket.key}/comments`, { body, internal: body === 'Between us' });
    }
    const rows = await sql<{ same: boolean; kept: boolean }>`
      select search_vector = ticket_text_document(id) || ticket_comments_document(id) as same,
             comments_vector = ticket_comments_document(id) as kept
      from tickets where key = ${ticket.key}`.execute(service.db);
    expect(rows.rows).toEqual([{ same: true, kept: true }]);
    const found = await call('lee', 'GET', '/tickets?query=third');
    expect(found.body.tickets.map((t: { key: string }) => t.key)).toContain(ticket.key);
  });

  it('keeps every one of 32 comments made at once on one ticket by three members: each answered, recorded, notified and searchable', async () => {
    const ticket = (await create('dev1', { summary: 'Busy thread' })).body;
    const authors = { lee: 'Lee Lead', dev1: 'Dev One', dev2: 'Dev Two' } as const;
    const who = (i: number) => (['lee', 'dev1', 'dev2'] as const)[i % 3]!;
    // every fourth mentions Ada; the words make each comment findable on its own
    const sent = Array.from({ length: 32 }, (_, i) => ({ who: who(i), body: `parallel${i}word${i % 4 === 0 ? ' @ada' : ''}` }));
    const answers = await Promise.all(sent.map((c) => call(c.who, 'POST', `/tickets/${ticket.key}/comments`, { body: c.body })));
    expect(answers.map((a) => a.status)).toEqual(sent.map(() => 201));
    answers.forEach((answer, i) =>
      expect(answer.body).toMatchObject({ author: { name: authors[sent[i]!.who] }, body: { text: sent[i]!.body } }),
    );
    const ids = answers.map((a) => a.body.id as string);

    const read = await call('lee', 'GET', `/tickets/${ticket.key}`);
    expect(read.body.comments.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort());
    const members = Object.fromEntries(
      (await service.db.selectFrom('members').select(['id', 'username']).execute()).map((m) => [m.id, m.username]),
    );
    const recorded = (await history(ticket.key)).filter((e) => e.kind === 'commented');
    expect(recorded.map((e) => [ids.indexOf((e.changes as { to: { id: string } }[])[0]!.to.id), members[e.actor_id!]]).sort()).toEqual(
      sent.map((c, i) => [i, c.who]).sort(),
    );
    // the reporter, watching, is told of each comment but their own; Ada of each that names her
    const told = (await notifications(ticket.key)).map((n) => [
      ids.indexOf((n.payload as { comment_id: string }).comment_id),
      n.username,
      n.kind,
    ]);
    const expected = sent.flatMap((c, i) => [
      ...(c.who === 'dev1' ? [] : [[i, 'dev1', 'commented']]),
      ...(c.body.includes('@ada') ? [[i, 'ada', 'mentioned']] : []),
    ]);
    expect(told.sort()).toEqual(expected.sort());
    // the same words as a rebuild; their positions follow the order the comments took the ticket's
    // row in, which two racing comments may take in the other order than their creation times
    const rows = await sql<{ same: boolean; exact: boolean }>`
      select strip(search_vector) = strip(ticket_text_document(id) || ticket_comments_document(id)) as same,
             search_vector = ticket_text_document(id) || ticket_comments_document(id) as exact
      from tickets where key = ${ticket.key}`.execute(service.db);
    // on PGlite one connection runs the statements in the order they were sent, so nothing races:
    // positions too are a rebuild's
    expect(rows.rows).toEqual([{ same: true, exact: postgresServerUrl() === null ? true : expect.any(Boolean) }]);
    for (const word of ['parallel0word', 'parallel17word', 'parallel31word']) {
      expect((await call('lee', 'GET', `/tickets?query=${word}`)).body.tickets.map((t: { key: string }) => t.key)).toEqual([ticket.key]);
    }
  });
});

describe('worklogs: time adds up and comes off the remaining estimate, never below zero', () => {
  it('logs 1h 30m against a 2d estimate', async () => {
    const { status, body } = await call('dev1', 'POST', '/tickets/TIX-1/worklogs', { time_spent: '1h 30m', body: 'proxy tracing' });
    expect(status).toBe(201);
    expect(body).toMatchObject({ time_spent_seconds: 5400, time_spent: '1h 30m', author: { name: 'Dev One' }, edited_at: null });
    expect(body.ticket).toEqual({ key: 'TIX-1', time_spent_seconds: 5400, remaining_estimate_seconds: 57600 - 5400 });
  });

  it('takes time_spent_seconds instead and a started_at', async () => {
    const { body } = await call('dev1', 'POST', '/tickets/TIX-1/worklogs', {
      time_spent_seconds: 1800,
      started_at: '2026-01-05T09:00:00Z',
    });
    expect(body.started_at).toBe('2026-01-05T09:00:00.000000Z');
    expect(body.ticket.time_spent_seconds).toBe(7200);
  });

  it('stops the remaining estimate at zero (a week is 5 days of 8 hours)', async () => {
    const { body } = await call('dev1', 'POST', '/tickets/TIX-1/worklogs', { time_spent: '1w' });
    expect(body.time_spent_seconds).toBe(144000);
    expect(body.ticket).toEqual({ key: 'TIX-1', time_spent_seconds: 151200, remaining_estimate_seconds: 0 });
  });

  it('keeps no remaining estimate on a ticket that had none', async () => {
    const { body } = await call('dev1', 'POST', '/tickets/TIX-3/worklogs', { time_spent: '2d' });
    expect(body.ticket).toEqual({ key: 'TIX-3', time_spent_seconds: 57600, remaining_estimate_seconds: null });
  });

  it('lists worklogs newest first on the ticket', async () => {
    const { body } = await call('dev1', 'GET', '/tickets/TIX-1');
    expect(body.worklogs.map((w: { time_spent: string }) => w.time_spent)).toEqual(['1w', '1h 30m', '30m']);
  });

  it.each([{ time_spent: '0m' }, { time_spent: 'a while' }, { time_spent_seconds: 0 }])(
    'refuses %j with invalid_duration and changes nothing',
    async (body) => {
      const reply = await call('dev1', 'POST', '/tickets/TIX-3/worklogs', body);
      expect(reply.status).toBe(422);
      expect(reply.body.error.code).toBe('invalid_duration');
      expect((await call('dev1', 'GET', '/tickets/TIX-3')).body.time_spent_seconds).toBe(57600);
    },
  );

  it('needs time:log and ticket:comment', async () => {
    expect((await call('vic', 'POST', '/tickets/TIX-3/worklogs', { time_spent: '1h' })).status).toBe(403);
  });
});

describe('worklogs: one history entry moving the totals, and the watchers told', () => {
  it('records the totals before and after under the member and the token, and notifies the watchers but the author', async () => {
    const key = (await create('lee', { summary: 'Work to log' })).body.key as string;
    const logged = await call('dev1', 'POST', `/tickets/${key}/worklogs`, { time_spent: '45m', body: 'Traced it' });
    expect(logged.status, logged.text).toBe(201);
    const entries = (await history(key)).filter((entry) => entry.kind === 'worklog');
    expect(entries).toEqual([
      expect.objectContaining({
        via: "dev1's agent",
        changes: [
          { field: 'time_spent_seconds', from: null, to: 2700 },
          { field: 'remaining_estimate_seconds', from: null, to: null },
        ],
      }),
    ]);
    const told = (await notifications(key)).filter((n) => n.kind === 'worklog');
    expect(told).toEqual([
      expect.objectContaining({
        username: 'lee',
        payload: expect.objectContaining({ worklog_id: logged.body.id, time_spent_seconds: 2700 }),
      }),
    ]);
  });
});

describe('worklogs sent at once on one ticket: the totals add up, each entry moving them on from the one before', () => {
  it('lands every worklog and records one chain of totals from none to their sum', async () => {
    const key = (await create('lee', { summary: 'Busy ticket' })).body.key as string;
    // on PostgreSQL their reads and writes interleave; PGlite runs each request's statements in turn
    const minutes = Array.from({ length: 12 }, (_, i) => i + 1);
    const replies = await Promise.all(
      minutes.map((m, i) => call(['lee', 'dev1'][i % 2]!, 'POST', `/tickets/${key}/worklogs`, { time_spent_seconds: m * 60 })),
    );
    for (const reply of replies) expect(reply.status, reply.text).toBe(201);
    const sum = minutes.reduce((total, m) => total + m * 60, 0);
    expect((await call('lee', 'GET', `/tickets/${key}`)).body.time_spent_seconds).toBe(sum);
    const steps = (await history(key))
      .filter((entry) => entry.kind === 'worklog')
      .map(
        (entry) =>
          (entry.changes as { field: string; from: number | null; to: number }[]).find((change) => change.field === 'time_spent_seconds')!,
      )
      .sort((a, b) => (a.from ?? 0) - (b.from ?? 0));
    expect(steps).toHaveLength(minutes.length);
    expect(steps[0]!.from).toBeNull();
    steps.slice(1).forEach((step, i) => expect(step.from).toBe(steps[i]!.to));
    expect(steps.at(-1)!.to).toBe(sum);
    // each answer shows the totals its own worklog left
    expect(replies.map((reply) => reply.body.ticket.time_spent_seconds).sort((a: number, b: number) => a - b)).toEqual(
      steps.map((step) => step.to),
    );
  });
});

describe('seed tickets: created once by number, left alone by later applies', () => {
  it('keeps a seeded ticket as the API changed it when the file is applied again', async () => {
    const fs = await import('node:fs');
    const { applyWorkspace } = await import('../../src/workspace/apply.ts');
    const { parseWorkspaceYaml } = await import('../../src/workspace/parse.ts');
    await call('lee', 'PATCH', '/tickets/TIX-4', { summary: 'Renamed through the API' });
    const before = await ticketCount();
    const text = fs.readFileSync(new URL('../fixtures/tickets-workspace.yaml', import.meta.url), 'utf8');
    await applyWorkspace(service.db, parseWorkspaceYaml(text, 'tickets-workspace.yaml'));
    expect(await ticketCount()).toBe(before);
    expect((await call('lee', 'GET', '/tickets/TIX-4')).body.summary).toBe('Renamed through the API');
  });
});
