import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { documentRebuilt, documentWords } from './search-document.ts';
import { chainImbalance, statusChanges } from './status-history.ts';

let service: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  service = await startTestService({ workspace: 'tickets-workspace.yaml' });
  for (const who of ['ada', 'lee', 'dev1', 'dev2', 'vic']) tokens[who] = await service.token(`${who}@example.com`);
});
afterAll(() => service.close());

const call = (who: string, method: string, path: string, body?: unknown) =>
  service.request(method, `/api/v1${path}`, { token: tokens[who], body });
const newTicket = async (extra: Record<string, unknown> = {}) =>
  (await call('lee', 'POST', '/tickets', { project: 'TIX', summary: 'Flow', ...extra })).body.key as string;
const move = (who: string, key: string, body: Record<string, unknown>) => call(who, 'POST', `/tickets/${key}/transitions`, body);
const read = async (key: string) => (await call('lee', 'GET', `/tickets/${key}`)).body;

describe('transitions: by name, id or target status name', () => {
  it('takes a transition by its name', async () => {
    const key = await newTicket();
    const { status, body } = await move('dev1', key, { transition: 'start' });
    expect(status).toBe(200);
    expect(body.status).toEqual({ name: 'In Progress', category: 'in_progress' });
  });

  it('takes a transition by its id', async () => {
    const key = await newTicket();
    const [start] = (await call('dev1', 'GET', `/tickets/${key}/transitions`)).body.transitions;
    expect((await move('dev1', key, { transition: start.id })).body.status.name).toBe('In Progress');
  });

  it('takes a transition by the name of the status it leads to', async () => {
    const key = await newTicket();
    expect((await move('dev1', key, { transition: 'In Progress' })).body.status.name).toBe('In Progress');
  });
});

describe('transitions: one the member cannot take now is 422 listing those they can', () => {
  it('refuses a transition from another status', async () => {
    const key = await newTicket();
    const reply = await move('dev1', key, { transition: 'Reopen' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('transition_not_available');
    expect(reply.body.error.message).toContain('"Start" (to In Progress)');
    expect(reply.body.error.message).not.toContain('Lead override');
    expect((await read(key)).status.name).toBe('To Do');
  });

  it('offers a role-conditioned transition only to holders of the role', async () => {
    const key = await newTicket();
    const names = async (who: string) =>
      (await call(who, 'GET', `/tickets/${key}/transitions`)).body.transitions.map((t: { name: string }) => t.name);
    expect(await names('lee')).toContain('Lead override');
    expect(await names('dev1')).not.toContain('Lead override');
  });

  it('needs ticket:transition', async () => {
    const key = await newTicket();
    expect((await move('vic', key, { transition: 'Start' })).status).toBe(403);
  });
});

describe('transitions: resolution set on entering done and cleared on leaving it', () => {
  it('changes nothing when a transition asks for a resolution that is missing', async () => {
    const key = await newTicket();
    const before = await read(key);
    const reply = await move('dev1', key, { transition: 'Finish', comment: 'closing' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toContain('/resolution');
    expect(reply.body.error.message).toContain('"Fixed", "Won\'t Fix"');
    const after = await read(key);
    expect(after.status.name).toBe('To Do');
    expect(after.comments).toEqual([]);
    expect(after.updated_at).toBe(before.updated_at);
  });

  it('sets the resolution and resolved_at on entering done, clears both on leaving', async () => {
    const key = await newTicket();
    const done = (await move('dev1', key, { transition: 'Finish', resolution: "won't fix" })).body;
    expect(done.status.category).toBe('done');
    expect(done.resolution).toBe("Won't Fix");
    expect(done.resolved_at).toMatch(/\.\d{6}Z$/);
    const reopened = (await move('dev1', key, { transition: 'Reopen' })).body;
    expect(reopened.resolution).toBeNull();
    expect(reopened.resolved_at).toBeNull();
  });

  it('refuses a resolution on a transition that does not lead to done', async () => {
    const key = await newTicket();
    expect((await move('dev1', key, { transition: 'Start', resolution: 'Fixed' })).status).toBe(422);
  });
});

describe('transitions: a refusing validator is 422 with its reason and nothing changes', () => {
  it('refuses review without a fix version and keeps the status', async () => {
    const key = await newTicket();
    await move('dev1', key, { transition: 'Start' });
    const reply = await move('dev1', key, { transition: 'Send to review', comment: 'please review' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toContain('Set a fix version before review');
    const after = await read(key);
    expect(after.status.name).toBe('In Progress');
    expect(after.comments).toEqual([]);
  });
});

describe('transitions: a validator that is satisfied lets the transition through', () => {
  it('sends a ticket with a fix version to review', async () => {
    const { status, body } = await move('dev1', 'TIX-5', { transition: 'Send to review' });
    expect(status).toBe(200);
    expect(body.status.name).toBe('In Review');
    expect(body.fix_versions).toEqual(['1.0']);
  });
});

describe('transitions: a screen asks for assignee and fields; others are not taken', () => {
  it('takes the assignee and the asked field', async () => {
    const key = await newTicket({ type: 'Bug' });
    const { status, body } = await move('lee', key, { transition: 'Triage', assignee: 'dev2@example.com', fields: { severity: 'Low' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: { name: 'In Review' }, assignee: { name: 'Dev Two' }, fields: { severity: 'Low' } });
  });

  it('refuses a field the transition does not ask for', async () => {
    const key = await newTicket({ type: 'Bug' });
    const reply = await move('lee', key, { transition: 'Triage', fields: { severity: 'Low', story_points: 2 } });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toContain('/fields/story_points');
  });

  it('refuses a transition whose asked field is missing', async () => {
    const key = await newTicket({ type: 'Bug' });
    const reply = await move('lee', key, { transition: 'Triage' });
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toContain('severity');
    expect((await read(key)).status.name).toBe('To Do');
  });

  it('refuses an assignee on a transition whose screen does not ask for one', async () => {
    const key = await newTicket();
    expect((await move('lee', key, { transition: 'Start', assignee: 'me' })).status).toBe(422);
  });
});

describe('transitions: the search document takes in the fields and the comment a transition wrote', () => {
  const found = async (word: string, key: string) =>
    (await call('lee', 'GET', `/tickets?query=${word}&project=TIX`)).body.tickets.some((t: { key: string }) => t.key === key);

  it('finds the ticket by the value its screen asked for and by the comment taken with it', async () => {
    const key = await newTicket({ type: 'Bug', summary: 'Wallaby gate' });
    // a comment first, so that the comments' part of the document is kept on the ticket
    await call('lee', 'POST', `/tickets/${key}/comments`, { body: 'emu tracks' });
    const reply = await move('lee', key, { transition: 'Triage', fields: { severity: 'Low' }, comment: 'galah squawking' });
    expect(reply.status).toBe(200);
    expect([await found('galah', key), await found('emu', key), await documentRebuilt(service.db, key)]).toEqual([true, true, true]);
    expect(await documentWords(service.db, key)).toContain('low');
  });

  it('keeps the document of a transition that writes no words, and finds it as before', async () => {
    const key = await newTicket({ summary: 'Koala branch' });
    await call('lee', 'POST', `/tickets/${key}/comments`, { body: 'lyrebird mimic' });
    expect((await move('lee', key, { transition: 'Start' })).status).toBe(200);
    expect([await found('koala', key), await found('lyrebird', key), await documentRebuilt(service.db, key)]).toEqual([true, true, true]);
  });
});

describe('transitions: history under the member with the token beside it, watchers told', () => {
  it('records one transition entry and notifies the reporter', async () => {
    const key = (await call('dev1', 'POST', '/tickets', { project: 'TIX', summary: 'Told' })).body.key;
    await move('lee', key, { transition: 'Finish', resolution: 'Fixed', comment: 'done and dusted' });
    const rows = await service.db
      .selectFrom('history as h')
      .innerJoin('tickets as t', 't.id', 'h.entity_id')
      .select(['h.kind', 'h.changes', 'h.via'])
      .where('t.key', '=', key)
      .where('h.kind', '=', 'transitioned')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.via).toBe('test agent');
    expect(rows[0]!.changes).toContainEqual({ field: 'status', from: 'To Do', to: 'Done' });
    const sent = await service.db
      .selectFrom('notifications as n')
      .innerJoin('tickets as t', 't.id', 'n.entity_id')
      .select(['n.kind'])
      .where('t.key', '=', key)
      .execute();
    expect(sent).toEqual([{ kind: 'transitioned' }]);
  });
});

describe('transitions sent at once on one ticket: each is taken from the status the one before it left', () => {
  it('records one chain of statuses from the first to the last, one entry per transition taken', async () => {
    const key = await newTicket();
    // on PostgreSQL their reads and writes interleave; PGlite runs each request's statements in turn
    const cycle = [{ transition: 'Start' }, { transition: 'Finish', resolution: 'Fixed' }, { transition: 'Reopen' }];
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => move(['lee', 'dev1'][i % 2]!, key, cycle[i % 3]!)));
    for (const reply of replies) {
      if (reply.status !== 200) expect(reply.body.error.code, reply.text).toBe('transition_not_available');
    }
    const taken = replies.filter((reply) => reply.status === 200).length;
    expect(taken).toBeGreaterThan(0);
    const changes = await statusChanges(service.db, key);
    expect(changes).toHaveLength(taken);
    const ticket = await read(key);
    expect(chainImbalance(changes, 'To Do', ticket.status.name)).toEqual({});
    expect(ticket.resolution === null).toBe(ticket.status.name !== 'Done');
  });
});
