import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireDueReminders } from '../../src/notifications/reminders.ts';
import type { TestService } from '../helpers/service.ts';
import { callTool, companyId, contactId, historyOf, refused, startCrm, type CrmApi, type Tokens } from './support.ts';

// Spec 2.9 (Interaction, InteractionList, FollowUpList), 3.7, 4.7 and 6: interactions and
// follow-ups through REST and MCP, with the reminder a due follow-up gives its assignee.

const NOW = new Date('2026-04-01T12:00:00.000Z');

let service: TestService;
let t: Tokens;
let api: CrmApi;
let anna: string;
let gina: string;
let nora: string;
let ben: string;

beforeAll(async () => {
  ({ service, t, api } = await startCrm({ now: () => NOW }));
  [anna, gina, nora, ben] = (await Promise.all(
    ['Anna Becker', 'Gina Global', 'Nora Nobody', 'Ben Graf'].map((name) => contactId(service, name)),
  )) as [string, string, string, string];
});
afterAll(() => service?.close());

const subjects = (reply: { body: { interactions: { subject: string }[] } }) => reply.body.interactions.map((i) => i.subject);
const memberId = async (email: string) =>
  (await service.db.selectFrom('members').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

describe('2.9 Interaction: every field, exactly', () => {
  it('shows the seeded kick-off call on deal SALES-1', async () => {
    const reply = await api.listInteractions(t.sam, { ticket: 'SALES-1' });
    expect(reply.status, reply.text).toBe(200);
    const call = reply.body.interactions.find((i: { subject: string }) => i.subject === 'Kick-off call');
    expect(call).toEqual({
      id: expect.any(String),
      kind: 'call',
      subject: 'Kick-off call',
      body: { format: 'markdown', text: 'Went well.' },
      occurred_at: '2026-03-02T10:00:00.000000Z',
      duration_seconds: 1800,
      author: { id: await memberId('sam@example.com'), name: 'Sam Seller' },
      contact: { id: anna, name: 'Anna Becker' },
      company: { id: await companyId(service, 'Acme GmbH'), name: 'Acme GmbH' },
      ticket: 'SALES-1',
      due_at: null,
      assignee: null,
      done_at: null,
      email: false,
      url: `http://localhost:8080/crm/interactions/${call.id}`,
    });
    expect(reply.body).toMatchObject({ limit: 20, offset: 0 });
  });

  it('shows a message a contact sent with no author and `email` true', async () => {
    const reply = await api.listInteractions(t.sam, { contact: gina, kind: 'email' });
    expect(reply.body.interactions).toEqual([
      expect.objectContaining({ kind: 'email', subject: 'Re: pricing', author: null, email: true, body: { format: 'markdown', text: '' } }),
    ]);
  });
});

describe('4.7 list_interactions: exactly one of contact, company, ticket; latest first', () => {
  it('lists by contact, by company (name or id), by ticket, and by kind', async () => {
    expect(subjects(await api.listInteractions(t.sam, { contact: anna }))).toEqual(['Send the contract', 'Kick-off call']);
    expect(subjects(await api.listInteractions(t.sam, { company: 'acme gmbh' }))).toEqual(['Send the contract', 'Kick-off call']);
    expect(subjects(await api.listInteractions(t.sam, { company: await companyId(service, 'Globex Corporation') }))).toEqual([
      'Re: pricing',
      'Globex budget',
    ]);
    expect(subjects(await api.listInteractions(t.sam, { contact: anna, kind: 'task' }))).toEqual(['Send the contract']);
    expect(subjects(await api.listInteractions(t.sam, { contact: anna, limit: 1, offset: 1 }))).toEqual(['Kick-off call']);
  });

  it('refuses none or two of them, and names what matches nothing', async () => {
    expect(await refused(service, () => api.listInteractions(t.sam, {}), 422, 'invalid')).toBe(
      '/: name exactly one of contact, company or ticket',
    );
    expect(await refused(service, () => api.listInteractions(t.sam, { contact: anna, ticket: 'SALES-1' }), 422, 'invalid')).toBe(
      '/ticket: name exactly one of contact, company or ticket (not contact and ticket)',
    );
    expect(await refused(service, () => api.listInteractions(t.sam, { company: 'Nope' }), 422, 'invalid')).toMatch(
      /^\/company: no company "Nope"/,
    );
    await refused(service, () => api.listInteractions(t.sam, { contact: '00000000-0000-4000-8000-000000000000' }), 404, 'not_found');
    await refused(service, () => api.listInteractions(t.sam, { ticket: 'SALES-999' }), 404, 'not_found');
  });
});

describe('4.7 interactions are seen by those who may see the CRM for their company, and about a ticket only by those who may see it', () => {
  it('shows a limited member only the interactions of her companies', async () => {
    expect(subjects(await api.listInteractions(t.lia, { company: 'Globex Corporation' }))).toEqual(['Re: pricing', 'Globex budget']);
    await refused(service, () => api.listInteractions(t.lia, { contact: nora }), 404, 'not_found');
    await refused(service, () => api.listInteractions(t.lia, { company: 'Umbrella Labs' }), 422, 'invalid');
  });

  it('leaves out interactions about a ticket the member cannot see, and 404s the ticket itself', async () => {
    expect(subjects(await api.listInteractions(t.cora, { contact: anna }))).toEqual(['Send the contract']);
    await refused(service, () => api.listInteractions(t.cora, { ticket: 'SALES-1' }), 404, 'not_found');
  });

  it('refuses the list to a member the CRM is closed to', async () => {
    expect(await refused(service, () => api.listInteractions(t.olga, { ticket: 'SALES-1' }), 403, 'forbidden')).toMatch(
      /You may not see the CRM/,
    );
  });
});

describe('4.7 log_interaction: what it is about, and when', () => {
  it('links a contact’s company automatically and records the history', async () => {
    const reply = await api.logInteraction(t.sam, {
      kind: 'call',
      subject: 'Quick check-in',
      contact: ben,
      body: 'All *fine*',
      duration: '1h 15m',
      occurred_at: '2026-03-30T15:00:00+02:00',
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      kind: 'call',
      contact: { id: ben, name: 'Ben Graf' },
      company: { name: 'Acme GmbH' },
      ticket: null,
      body: { format: 'markdown', text: 'All *fine*' },
      duration_seconds: 4500,
      occurred_at: '2026-03-30T13:00:00.000000Z',
      author: { name: 'Sam Seller' },
      due_at: null,
      assignee: null,
      done_at: null,
      email: false,
    });
    expect(await historyOf(service, 'interaction', reply.body.id)).toEqual([
      expect.objectContaining({ kind: 'created', member: 'Sam Seller', via: "sam's agent" }),
    ]);
  });

  it('reads a local time in the time zone given, takes one ahead of now (a planned meeting), and is now when left out', async () => {
    const planned = await api.logInteraction(t.sam, {
      kind: 'meeting',
      subject: 'Planned demo',
      company: 'Acme GmbH',
      occurred_at: '2026-07-01T09:30',
      timezone: 'Europe/Berlin',
    });
    expect(planned.status, planned.text).toBe(201);
    expect(planned.body.occurred_at).toBe('2026-07-01T07:30:00.000000Z');
    const winter = await api.logInteraction(t.sam, {
      kind: 'note',
      subject: 'Winter note',
      company: 'Acme GmbH',
      occurred_at: '2026-01-15T09:30',
      timezone: 'America/New_York',
    });
    expect(winter.body.occurred_at).toBe('2026-01-15T14:30:00.000000Z');
    const now = await api.logInteraction(t.sam, { kind: 'note', subject: 'Now', company: 'Acme GmbH' });
    expect(now.body).toMatchObject({
      occurred_at: '2026-04-01T12:00:00.000000Z',
      duration_seconds: 0,
      body: { format: 'markdown', text: '' },
    });
  });

  it('refuses a local time without a time zone, an unknown zone, a moment that is none, and a duration that is none', async () => {
    expect(
      await refused(
        service,
        () => api.logInteraction(t.sam, { kind: 'call', subject: 'X', company: 'Acme GmbH', occurred_at: '2026-07-01T09:30' }),
        422,
        'invalid',
      ),
    ).toMatch(/^\/timezone: is required with a local time/);
    expect(
      await refused(
        service,
        () =>
          api.logInteraction(t.sam, {
            kind: 'call',
            subject: 'X',
            company: 'Acme GmbH',
            occurred_at: '2026-07-01T09:30',
            timezone: 'Mars/Olympus',
          }),
        422,
        'invalid',
      ),
    ).toMatch(/^\/timezone: "Mars\/Olympus" is not an IANA time zone/);
    expect(
      await refused(
        service,
        () => api.logInteraction(t.sam, { kind: 'call', subject: 'X', company: 'Acme GmbH', occurred_at: 'yesterday' }),
        422,
        'invalid',
      ),
    ).toMatch(/^\/occurred_at: must be ISO 8601/);
    expect(
      await refused(
        service,
        () => api.logInteraction(t.sam, { kind: 'call', subject: 'X', company: 'Acme GmbH', occurred_at: '2026-02-30T10:00:00Z' }),
        422,
        'invalid',
      ),
    ).toMatch(/^\/occurred_at: .* not a real date/);
    expect(
      await refused(
        service,
        () => api.logInteraction(t.sam, { kind: 'call', subject: 'X', company: 'Acme GmbH', duration: 'a while' }),
        422,
        'invalid_duration',
      ),
    ).toMatch(/^\/duration: /);
  });

  it('refuses an email typed in, a subject over 255 characters, nothing to be about, and task fields on something else', async () => {
    expect(
      await refused(service, () => api.logInteraction(t.sam, { kind: 'email', subject: 'X', company: 'Acme GmbH' }), 422, 'invalid'),
    ).toMatch(/^\/kind: must be one of "note", "call", "meeting", "task"/);
    await refused(
      service,
      () => api.logInteraction(t.sam, { kind: 'note', subject: 'x'.repeat(256), company: 'Acme GmbH' }),
      422,
      'invalid',
    );
    expect(await refused(service, () => api.logInteraction(t.sam, { kind: 'note', subject: 'X' }), 422, 'invalid')).toBe(
      '/: name at least one of contact, company or ticket',
    );
    expect(
      await refused(
        service,
        () => api.logInteraction(t.sam, { kind: 'call', subject: 'X', company: 'Acme GmbH', due_at: '2026-05-01T10:00:00Z' }),
        422,
        'invalid',
      ),
    ).toBe('/due_at: only a task (a follow-up) has a due moment; this is a call');
  });
});

describe('4.7 with a company or a deal, the contact is one of its contacts or one of the deal’s people the member may edit', () => {
  it('refuses somebody else’s contact with 422', async () => {
    expect(
      await refused(
        service,
        () => api.logInteraction(t.sam, { kind: 'note', subject: 'X', company: 'Acme GmbH', contact: gina }),
        422,
        'invalid',
      ),
    ).toBe('/contact: Gina Global is not a contact of Acme GmbH');
    expect(
      await refused(
        service,
        () => api.logInteraction(t.sam, { kind: 'note', subject: 'X', ticket: 'SALES-2', contact: anna }),
        422,
        'invalid',
      ),
    ).toBe("/contact: Anna Becker is not a contact of Globex Corporation or one of SALES-2's people you may edit");
    expect(
      await refused(
        service,
        () => api.logInteraction(t.sam, { kind: 'note', subject: 'X', ticket: 'SALES-3', contact: anna }),
        422,
        'invalid',
      ),
    ).toBe("/contact: Anna Becker is not one of SALES-3's people you may edit");
  });

  it('takes one of the deal’s people from another company, and links the deal’s company', async () => {
    const reply = await api.logInteraction(t.sam, { kind: 'call', subject: 'Reference call', ticket: 'sales-1', contact: gina });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ ticket: 'SALES-1', contact: { name: 'Gina Global' }, company: { name: 'Acme GmbH' } });
  });

  it('refuses a deal person the member may see but not edit, and 404s a contact the member cannot see', async () => {
    expect(
      await refused(
        service,
        () => api.logInteraction(t.lia, { kind: 'note', subject: 'X', ticket: 'SALES-1', contact: gina }),
        422,
        'invalid',
      ),
    ).toMatch(/^\/contact: Gina Global is not/);
    await refused(
      service,
      () => api.logInteraction(t.lia, { kind: 'note', subject: 'X', company: 'Acme GmbH', contact: nora }),
      404,
      'not_found',
    );
    await refused(service, () => api.logInteraction(t.cora, { kind: 'note', subject: 'X', ticket: 'SALES-1' }), 404, 'not_found');
  });

  it('refuses a company other than the deal’s', async () => {
    expect(
      await refused(
        service,
        () => api.logInteraction(t.sam, { kind: 'note', subject: 'X', ticket: 'SALES-1', company: 'Globex Corporation' }),
        422,
        'invalid',
      ),
    ).toBe('/company: SALES-1 is a deal with Acme GmbH, not Globex Corporation');
  });
});

describe('4.7 logging needs Edit the CRM for the company concerned', () => {
  it('lets Lia log for Acme and refuses her for Globex; refuses viewers, the closed and read tokens', async () => {
    expect((await api.logInteraction(t.lia, { kind: 'note', subject: 'Lia was here', company: 'Acme GmbH' })).status).toBe(201);
    expect(
      await refused(
        service,
        () => api.logInteraction(t.lia, { kind: 'note', subject: 'X', company: 'Globex Corporation' }),
        403,
        'forbidden',
      ),
    ).toBe('You may not log interactions for Globex Corporation (needs crm:edit for that company or the whole CRM)');
    await refused(service, () => api.logInteraction(t.vic, { kind: 'note', subject: 'X', company: 'Acme GmbH' }), 403, 'forbidden');
    await refused(service, () => api.logInteraction(t.olga, { kind: 'note', subject: 'X', ticket: 'SALES-1' }), 403, 'forbidden');
    await refused(service, () => api.logInteraction(t.samRead, { kind: 'note', subject: 'X', company: 'Acme GmbH' }), 403, 'forbidden');
  });
});

describe('3.7 follow-ups: tasks with a due moment and an assignee (me by default) who is reminded; completed by assignee, author or a CRM manager', () => {
  it('records a reminder for the assignee at the due moment, which notifies them once it comes due', async () => {
    const reply = await api.logInteraction(t.mia, {
      kind: 'task',
      subject: 'Call Gina back',
      contact: gina,
      due_at: '2026-04-02T09:00',
      timezone: 'Europe/Berlin',
      assignee: 'Sam Seller',
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      kind: 'task',
      due_at: '2026-04-02T07:00:00.000000Z',
      assignee: { name: 'Sam Seller' },
      author: { name: 'Mia Manager' },
      done_at: null,
    });
    const reminder = await service.db.selectFrom('reminders').selectAll().where('entity_id', '=', reply.body.id).executeTakeFirstOrThrow();
    expect(reminder).toMatchObject({
      member_id: await memberId('sam@example.com'),
      kind: 'follow_up',
      entity_type: 'interaction',
      fired_at: null,
    });
    expect(new Date(reminder.due_at).toISOString()).toBe('2026-04-02T07:00:00.000Z');

    await fireDueReminders(service.db, new Date('2026-04-02T06:59:00Z'), false);
    const early = await service.db.selectFrom('notifications').select('id').where('entity_id', '=', reply.body.id).execute();
    expect(early).toEqual([]);
    await fireDueReminders(service.db, new Date('2026-04-02T07:01:00Z'), false);
    const sent = await service.db
      .selectFrom('notifications')
      .select(['member_id', 'kind', 'payload'])
      .where('entity_id', '=', reply.body.id)
      .execute();
    expect(sent).toEqual([
      {
        member_id: await memberId('sam@example.com'),
        kind: 'reminder',
        payload: expect.objectContaining({ subject: 'Call Gina back', reminder: 'follow_up', path: `/crm/interactions/${reply.body.id}` }),
      },
    ]);
  });

  it('assigns a task to its author when no assignee is given, and refuses one who may not see the CRM for the company', async () => {
    const mine = await api.logInteraction(t.lia, { kind: 'task', subject: 'Lia’s own task', company: 'Acme GmbH' });
    expect(mine.body).toMatchObject({ assignee: { name: 'Lia Limited' }, due_at: null });
    const forLia = { kind: 'task', subject: 'X', company: 'Umbrella Labs', assignee: 'Lia Limited' };
    expect(await refused(service, () => api.logInteraction(t.sam, forLia), 422, 'not_assignable')).toMatch(
      /^\/assignee: Lia Limited may not see the CRM for Umbrella Labs; people who may see this follow-up are /,
    );
  });

  it('refuses an assignee who may not see the ticket it is about (not_assignable), through REST and MCP', async () => {
    const about = { kind: 'task', subject: 'Call about the deal', ticket: 'SALES-1', due_at: '2026-04-05T09:00:00Z' };
    const forCora = () => api.logInteraction(t.mia, { ...about, assignee: 'Cora Crm' });
    const message = await refused(service, forCora, 422, 'not_assignable');
    expect(message).toMatch(/^\/assignee: Cora Crm may not see SALES-1, which this follow-up is about; people who /);
    // those listed may see the deal and the CRM for its company; Cora and Olga are not among them
    expect(message).toContain('"Vic Viewer"');
    expect(message).not.toMatch(/Cora Crm"|Olga/);
    const tool = await callTool(service, t.mia, 'log_interaction', { ...about, assignee: 'Cora Crm' });
    expect(tool).toEqual({ isError: true, content: [{ type: 'text', text: message }] });
    const seen = await api.logInteraction(t.mia, { ...about, assignee: 'Vic Viewer' });
    expect(seen.status, seen.text).toBe(201);
    expect(seen.body.assignee).toMatchObject({ name: 'Vic Viewer' });
  });

  it('completes by the assignee, once; a completed follow-up’s reminder never fires', async () => {
    const task = (
      await api.logInteraction(t.mia, {
        kind: 'task',
        subject: 'Done early',
        company: 'Acme GmbH',
        due_at: '2026-04-10T09:00:00Z',
        assignee: 'Sam Seller',
      })
    ).body;
    const done = await api.complete(t.sam, task.id);
    expect(done.status, done.text).toBe(200);
    expect(done.body.done_at).toBe('2026-04-01T12:00:00.000000Z');
    const history = await historyOf(service, 'interaction', task.id);
    expect(history.map((h) => h.kind)).toEqual(['created', 'completed']);
    const again = await api.complete(t.sam, task.id);
    expect(again.body).toEqual(done.body);
    expect(await historyOf(service, 'interaction', task.id)).toHaveLength(2);
    await fireDueReminders(service.db, new Date('2026-04-11T00:00:00Z'), false);
    expect(await service.db.selectFrom('notifications').select('id').where('entity_id', '=', task.id).execute()).toEqual([]);
  });

  it('completes by the author and by a CRM manager of the company; refuses others', async () => {
    const byAuthor = (await api.logInteraction(t.sam, { kind: 'task', subject: 'For Lia', company: 'Acme GmbH', assignee: 'Lia Limited' }))
      .body;
    expect((await api.complete(t.sam, byAuthor.id)).status).toBe(200);
    const forSam = (await api.logInteraction(t.sam, { kind: 'task', subject: 'For Sam', company: 'Acme GmbH' })).body;
    expect(await refused(service, () => api.complete(t.lia, forSam.id), 403, 'forbidden')).toBe(
      'You may not complete follow-ups of others for Acme GmbH (needs crm:manage for that company or the whole CRM)',
    );
    await refused(service, () => api.complete(t.vic, forSam.id), 403, 'forbidden');
    await refused(service, () => api.complete(t.olga, forSam.id), 404, 'not_found');
    await refused(service, () => api.complete(t.samRead, forSam.id), 403, 'forbidden');
    expect((await api.complete(t.mia, forSam.id)).body.done_at).not.toBeNull();
  });

  it('completes only tasks, and 404s what is no interaction', async () => {
    const note = (await api.listInteractions(t.sam, { company: 'Globex Corporation', kind: 'note' })).body.interactions[0];
    expect(await refused(service, () => api.complete(t.ada, note.id), 422, 'invalid')).toBe(
      '/id: only a follow-up (an interaction of kind task) is completed; this one is a note',
    );
    await refused(service, () => api.complete(t.ada, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    await refused(service, () => api.complete(t.ada, 'nope'), 404, 'not_found');
  });
});

describe('4.7 list_follow_ups: open follow-ups assigned to the member, soonest due first, no due moment last', () => {
  it('lists Sam’s open tasks in due order, and nothing for a member the CRM is closed to', async () => {
    await api.logInteraction(t.sam, { kind: 'task', subject: 'Someday', company: 'Globex Corporation' });
    await api.logInteraction(t.sam, { kind: 'task', subject: 'Soon', company: 'Globex Corporation', due_at: '2026-03-25T08:00:00Z' });
    const reply = await api.followUps(t.sam);
    expect(reply.status).toBe(200);
    const listed = reply.body.follow_ups.map((f: { subject: string }) => f.subject);
    expect(listed).toEqual(['Send the contract', 'Soon', 'Call Gina back', 'Someday']);
    expect(reply.body.follow_ups.every((f: { done_at: null; kind: string }) => f.done_at === null && f.kind === 'task')).toBe(true);
    expect((await api.followUps(t.olga)).body).toEqual({ follow_ups: [] });
    expect((await api.followUps(t.samRead)).body).toEqual(reply.body);
  });
});

describe('4.8 the interaction tools answer as REST does', () => {
  it('logs, lists, completes and lists follow-ups through tools', async () => {
    const logged = await callTool(service, t.sam, 'log_interaction', {
      kind: 'task',
      subject: 'Tool task',
      contact: anna,
      due_at: '2026-04-03T10:00:00Z',
    });
    expect(logged.isError, logged.content[0]!.text).toBe(false);
    expect(logged.structuredContent).toMatchObject({
      subject: 'Tool task',
      company: { name: 'Acme GmbH' },
      assignee: { name: 'Sam Seller' },
    });
    const listed = await callTool(service, t.sam, 'list_interactions', { contact: anna });
    expect(listed.structuredContent).toEqual((await api.listInteractions(t.sam, { contact: anna })).body);
    const followUps = await callTool(service, t.sam, 'list_follow_ups', {});
    expect(followUps.structuredContent).toEqual((await api.followUps(t.sam)).body);
    const done = await callTool(service, t.sam, 'complete_follow_up', { id: logged.structuredContent.id });
    expect(done.structuredContent.done_at).not.toBeNull();
    const wrong = await callTool(service, t.sam, 'log_interaction', { kind: 'note', subject: 'X', company: 'Acme GmbH', contact: gina });
    expect(wrong).toEqual({ isError: true, content: [{ type: 'text', text: '/contact: Gina Global is not a contact of Acme GmbH' }] });
  });
});
