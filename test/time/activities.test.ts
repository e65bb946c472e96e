import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { activitiesOf, api, callTool, startTime, type Clock, type TimeTokens } from './support.ts';

let service: TestService;
let t: TimeTokens;
let clock: Clock;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  ({ service, t, clock } = await startTime());
  call = api(service);
});
afterAll(() => service.close());

const create = (token: string, body: Record<string, unknown>) => call(token, 'POST', '/activities', body);

describe('3.3 running and finished: neither end nor duration runs; one timer at a time', () => {
  it('starts a timer, and a second one stops the first where it starts', async () => {
    const first = await create(t.lee, { description: 'First timer', start: '2026-11-10T08:00:00Z' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      running: true,
      ended_at: null,
      time_spent_seconds: null,
      time_spent: null,
      billable: true,
      locked: false,
      author: { name: 'Lee Lead' },
    });
    const second = await create(t.lee, { description: 'Second timer', start: '2026-11-10T09:30:00Z' });
    expect(second.status).toBe(201);
    const stopped = await call(t.lee, 'GET', `/activities/${first.body.id}`);
    expect(stopped.body).toMatchObject({
      running: false,
      ended_at: '2026-11-10T09:30:00.000000Z',
      time_spent_seconds: 5400,
      time_spent: '1h 30m',
    });
    expect(stopped.body.history.map((h: { kind: string }) => h.kind)).toEqual(['created', 'stopped_by_new']);
    const running = await call(t.lee, 'GET', '/activities?running=true');
    expect(running.body.activities.map((a: { id: string }) => a.id)).toEqual([second.body.id]);
    expect((await call(t.lee, 'POST', `/activities/${second.body.id}/stop`, {})).body).toMatchObject({
      running: false,
      ended_at: '2026-11-10T10:00:00.000000Z',
    });
  });

  it('refuses a new timer that starts before the running one, and changes nothing', async () => {
    const running = await create(t.dev1, { start: '2026-11-10T09:00:00Z' });
    const before = await activitiesOf(service, t.dev1);
    const refused = await create(t.dev1, { start: '2026-11-10T08:00:00Z' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/^\/start: is before the start of your running activity/);
    expect(await activitiesOf(service, t.dev1)).toEqual(before);
    await call(t.dev1, 'POST', `/activities/${running.body.id}/stop`, { end: '2026-11-10T09:15:00Z' });
  });

  it('finishes with end or with duration; both at once is 422', async () => {
    const withEnd = await create(t.lee, { start: '2026-11-09T08:00:00+01:00', end: '2026-11-09T09:45:00+01:00' });
    expect(withEnd.body).toMatchObject({ running: false, time_spent_seconds: 6300, time_spent: '1h 45m' });
    const withDuration = await create(t.lee, { start: '2026-11-09T13:00:00Z', duration: '2d' });
    expect(withDuration.body).toMatchObject({ time_spent_seconds: 16 * 3600, ended_at: '2026-11-10T05:00:00.000000Z' });
    const both = await create(t.lee, { start: '2026-11-09T13:00:00Z', duration: '1h', end: '2026-11-09T15:00:00Z' });
    expect(both.status).toBe(422);
    expect(both.body.error.message).toBe('/duration: give end or duration, not both');
  });
});

describe('4.6 stop: end with an offset, a local time, HH:MM on the start’s day, or now; never before the start', () => {
  it('stops at HH:MM on the start’s local day, in the time zone given', async () => {
    // 23:30 in New York on 1 March is 04:30 UTC on 2 March: "23:45" is the same local evening
    const running = await create(t.dev1, { start: '2026-03-01T23:30', timezone: 'America/New_York' });
    expect(running.body.started_at).toBe('2026-03-02T04:30:00.000000Z');
    const stopped = await call(t.dev1, 'POST', `/activities/${running.body.id}/stop`, { end: '23:45', timezone: 'America/New_York' });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ ended_at: '2026-03-02T04:45:00.000000Z', time_spent: '15m' });
  });

  it('refuses an end before the start (422, still running) and a stop of a finished activity', async () => {
    const running = await create(t.lee, { start: '2026-11-10T09:00:00Z' });
    const early = await call(t.lee, 'POST', `/activities/${running.body.id}/stop`, { end: '2026-11-10T08:59:00Z' });
    expect(early.status).toBe(422);
    expect(early.body.error.message).toMatch(/^\/end: is before the start/);
    expect((await call(t.lee, 'GET', `/activities/${running.body.id}`)).body.running).toBe(true);
    const local = await call(t.lee, 'POST', `/activities/${running.body.id}/stop`, { end: '09:30' });
    expect(local.status).toBe(422);
    expect(local.body.error.message).toMatch(/^\/end: must be ISO 8601 with an offset/);
    await call(t.lee, 'POST', `/activities/${running.body.id}/stop`, { end: '2026-11-10T10:30:00+01:00' });
    const again = await call(t.lee, 'POST', `/activities/${running.body.id}/stop`, {});
    expect(again.status).toBe(422);
    expect(again.body.error.message).toMatch(/is not running/);
  });
});

describe('4.6 times: an offset stands alone; a local time or a day needs an IANA time zone (daylight saving included)', () => {
  it('reads local times across the daylight-saving change in Berlin and New York', async () => {
    const berlin = await create(t.lee, { start: '2026-03-29T09:00', duration: '1h', timezone: 'Europe/Berlin' });
    expect(berlin.body.started_at).toBe('2026-03-29T07:00:00.000000Z'); // CEST from 02:00 that night
    const berlinBefore = await create(t.lee, { start: '2026-03-28T09:00', duration: '1h', timezone: 'Europe/Berlin' });
    expect(berlinBefore.body.started_at).toBe('2026-03-28T08:00:00.000000Z');
    const newYork = await create(t.lee, { start: '2026-11-01T09:00', duration: '1h', timezone: 'America/New_York' });
    expect(newYork.body.started_at).toBe('2026-11-01T14:00:00.000000Z'); // EST from 02:00 that morning
    const day = await create(t.lee, { start: '2026-11-02', duration: '30m', timezone: 'America/New_York' });
    expect(day.body.started_at).toBe('2026-11-02T05:00:00.000000Z');
  });

  it('refuses a local time without a zone, an unknown zone and a date that is not one', async () => {
    const before = await activitiesOf(service, t.lee);
    const noZone = await create(t.lee, { start: '2026-11-02T09:00', duration: '1h' });
    expect(noZone.status).toBe(422);
    expect(noZone.body.error.message).toMatch(/^\/timezone: is required with a local time \(start is "2026-11-02T09:00"\)/);
    const unknown = await create(t.lee, { start: '2026-11-02T09:00', duration: '1h', timezone: 'Mars/Olympus' });
    expect(unknown.body.error.message).toBe(
      '/timezone: "Mars/Olympus" is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)',
    );
    const notADate = await create(t.lee, { start: '2026-02-30T09:00:00Z', duration: '1h' });
    expect(notADate.body.error.message).toBe('/start: "2026-02-30T09:00:00Z" is not a real date and time');
    expect(await activitiesOf(service, t.lee)).toEqual(before);
  });

  it("takes the member's own time zone through MCP when none is given", async () => {
    // Dev One lives in New York (the workspace file says so)
    const made = await callTool(service, t.dev1, 'create_activity', {
      description: 'From an agent',
      start: '2026-07-01T09:00',
      duration: '1h',
    });
    expect(made.isError, made.content[0]!.text).toBe(false);
    expect(made.structuredContent.started_at).toBe('2026-07-01T13:00:00.000000Z');
    const rest = await create(t.dev1, { start: '2026-07-01T09:00', duration: '1h' });
    expect(rest.status).toBe(422);
  });
});

describe('4.6 durations and descriptions: the tickets’ parser, a day of 8 hours; descriptions up to 500 characters', () => {
  it('refuses zero minutes and words that are no duration with invalid_duration', async () => {
    for (const duration of ['0m', 'soon']) {
      const refused = await create(t.lee, { start: '2026-11-03T09:00:00Z', duration });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('invalid_duration');
    }
  });

  it('refuses a description of 501 characters naming the field', async () => {
    const refused = await create(t.lee, { start: '2026-11-03T09:00:00Z', duration: '1h', description: 'x'.repeat(501) });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/^\/description: /);
  });
});

describe('4.6 links: a project needs time:log there; a ticket must be visible and brings its project; null or "" clears', () => {
  it('links a ticket (its project comes along), a customer by name, and clears them', async () => {
    const ticket = await call(t.dev1, 'POST', '/tickets', { project: 'CORE', summary: 'Work to time' });
    const made = await create(t.dev1, {
      start: '2026-11-04T09:00:00Z',
      duration: '1h',
      ticket: ticket.body.key,
      customer: 'acme gmbh',
      tags: ['dev', 'dev', ' review '],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      ticket: { key: ticket.body.key, summary: 'Work to time' },
      project: { key: 'CORE', name: 'Core platform' },
      customer: { name: 'Acme GmbH' },
      tags: ['dev', 'review'],
    });
    const cleared = await call(t.dev1, 'PATCH', `/activities/${made.body.id}`, { ticket: null, project: '', customer: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ ticket: null, project: null, customer: null, tags: ['dev', 'review'] });
  });

  it('refuses a project where the member may not log time (403), a ticket they cannot see and an unknown customer (422)', async () => {
    const before = await activitiesOf(service, t.vic);
    const viewer = await create(t.vic, { start: '2026-11-04T09:00:00Z', duration: '1h', project: 'CORE' });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.message).toBe('You may not log time in project CORE: it needs time:log');
    const hidden = await create(t.dev1, { start: '2026-11-04T09:00:00Z', duration: '1h', ticket: 'HIDE-1' });
    expect(hidden.status).toBe(422);
    expect(hidden.body.error.message).toBe('/ticket: no ticket "HIDE-1" that you can see');
    const customer = await create(t.dev1, { start: '2026-11-04T09:00:00Z', duration: '1h', customer: 'Initech' });
    expect(customer.body.error.message).toBe('/customer: no customer "Initech"; customers are "Acme GmbH", "Globex"');
    expect(await activitiesOf(service, t.vic)).toEqual(before);
  });

  it('lets anyone track their own time with no project', async () => {
    const mine = await create(t.olga, { start: '2026-11-04T09:00:00Z', duration: '20m', description: 'Reading' });
    expect(mine.status).toBe(201);
  });
});

describe("4.6 a ticket's activity is its worklog (Tempo-like): the ticket's time follows the activity", () => {
  const ticketTime = async (key: string) => {
    const ticket = (await call(t.dev1, 'GET', `/tickets/${key}`)).body;
    return {
      spent: ticket.time_spent_seconds,
      worklogs: ticket.worklogs.map((w: { time_spent_seconds: number; body: { text: string } | null }) => [
        w.time_spent_seconds,
        w.body?.text ?? null,
      ]),
    };
  };

  it('adds, changes and removes the worklog as the activity finishes, changes, leaves the ticket and is deleted', async () => {
    const ticket = await call(t.dev1, 'POST', '/tickets', { project: 'CORE', summary: 'Timed work' });
    const key = ticket.body.key as string;
    const timer = await create(t.dev1, { start: '2026-11-09T08:00:00Z', ticket: key, description: 'Digging in' });
    expect(await ticketTime(key)).toEqual({ spent: null, worklogs: [] });
    await call(t.dev1, 'POST', `/activities/${timer.body.id}/stop`, { end: '2026-11-09T09:00:00Z' });
    expect(await ticketTime(key)).toEqual({ spent: 3600, worklogs: [[3600, 'Digging in']] });
    await call(t.dev1, 'PATCH', `/activities/${timer.body.id}`, { duration: '2h', description: 'Dug in' });
    expect(await ticketTime(key)).toEqual({ spent: 7200, worklogs: [[7200, 'Dug in']] });
    const logged = await call(t.dev1, 'POST', `/tickets/${key}/worklogs`, { time_spent: '30m' });
    expect(logged.status).toBe(201);
    await call(t.dev1, 'PATCH', `/activities/${timer.body.id}`, { ticket: null });
    expect(await ticketTime(key)).toEqual({ spent: 1800, worklogs: [[1800, null]] });
    await call(t.dev1, 'PATCH', `/activities/${timer.body.id}`, { ticket: key });
    expect((await ticketTime(key)).spent).toBe(1800 + 7200);
    await call(t.dev1, 'DELETE', `/activities/${timer.body.id}`);
    expect(await ticketTime(key)).toEqual({ spent: 1800, worklogs: [[1800, null]] });
  });

  it('puts the worklog of a timer stopped by a new one on its ticket too', async () => {
    const ticket = await call(t.dev1, 'POST', '/tickets', { project: 'CORE', summary: 'Switching tasks' });
    await create(t.dev1, { start: '2026-11-12T08:00:00Z', ticket: ticket.body.key });
    const next = await create(t.dev1, { start: '2026-11-12T08:45:00Z' });
    expect((await ticketTime(ticket.body.key)).spent).toBe(2700);
    await call(t.dev1, 'POST', `/activities/${next.body.id}/stop`, { end: '2026-11-12T09:00:00Z' });
  });
});

describe('5.6 an activity is its author’s: others see it only with time:view_all in its project, and never change it', () => {
  it("shows Dev One's CORE activity to Lee (time:view_all) but not to Vic, and refuses Lee's change", async () => {
    const made = await create(t.dev1, { start: '2026-11-05T09:00:00Z', duration: '1h', project: 'CORE', description: 'Dev time' });
    expect((await call(t.lee, 'GET', `/activities/${made.body.id}`)).status).toBe(200);
    expect((await call(t.vic, 'GET', `/activities/${made.body.id}`)).status).toBe(404);
    const listed = await call(t.lee, 'GET', '/activities?member=Dev%20One&from=2026-11-05&to=2026-11-05');
    expect(listed.body.activities.map((a: { id: string }) => a.id)).toEqual([made.body.id]);
    const vicList = await call(t.vic, 'GET', '/activities?member=Dev%20One');
    expect(vicList.body.activities).toEqual([]);
    const change = await call(t.lee, 'PATCH', `/activities/${made.body.id}`, { description: 'Not mine' });
    expect(change.status).toBe(403);
    expect((await call(t.dev1, 'GET', `/activities/${made.body.id}`)).body.description).toBe('Dev time');
  });

  it('is 404 for an id that is no activity', async () => {
    expect((await call(t.lee, 'GET', '/activities/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call(t.lee, 'GET', '/activities/not-an-id')).status).toBe(422);
  });
});

describe('4.6 locked: an activity in a closed billing phase refuses changes and deletion (403)', () => {
  it('keeps the seed activity of the closed first half-year as it is', async () => {
    const listed = await call(t.dev1, 'GET', '/activities?from=2026-03-02&to=2026-03-02&timezone=Europe/Berlin');
    const billed = listed.body.activities.find((a: { description: string }) => a.description === 'Billed long ago');
    expect(billed).toMatchObject({ locked: true, customer: { name: 'Acme GmbH' }, time_spent: '2h' });
    const change = await call(t.dev1, 'PATCH', `/activities/${billed.id}`, { description: 'Rewritten' });
    expect(change.status).toBe(403);
    expect(change.body.error.message).toMatch(/locked: it falls in a closed billing phase/);
    expect((await call(t.dev1, 'DELETE', `/activities/${billed.id}`)).status).toBe(403);
    expect((await call(t.dev1, 'GET', `/activities/${billed.id}`)).body.description).toBe('Billed long ago');
  });
});

describe('3.3 delete: the activity leaves every list and total; its history says so', () => {
  it('deletes, lists no more, reports no more, and a second delete is 404', async () => {
    const made = await create(t.olga, { start: '2026-11-06T09:00:00Z', duration: '3h', description: 'Soon gone' });
    const totalBefore = (await call(t.olga, 'GET', '/reports/hours?from=2026-11-06&to=2026-11-06&timezone=UTC')).body.total.seconds;
    const deleted = await call(t.olga, 'DELETE', `/activities/${made.body.id}`);
    expect(deleted.body).toEqual({ id: made.body.id, deleted: true });
    expect((await call(t.olga, 'GET', '/activities')).body.activities.map((a: { id: string }) => a.id)).not.toContain(made.body.id);
    expect((await call(t.olga, 'GET', '/reports/hours?from=2026-11-06&to=2026-11-06&timezone=UTC')).body.total.seconds).toBe(
      totalBefore - 3 * 3600,
    );
    expect((await call(t.olga, 'DELETE', `/activities/${made.body.id}`)).status).toBe(404);
    const history = await service.db.selectFrom('history').select('kind').where('entity_id', '=', made.body.id).orderBy('at').execute();
    expect(history.map((h) => h.kind)).toEqual(['created', 'deleted']);
  });
});

describe('2.8 ActivityDetail history: kind, time, actor, the agent, each field from and to, oldest first', () => {
  it('records a change with who, through which agent, and what', async () => {
    const made = await create(t.lee, { start: '2026-11-07T09:00:00Z', duration: '1h', description: 'Before' });
    await call(t.lee, 'PATCH', `/activities/${made.body.id}`, { description: 'After', billable: false, start: '2026-11-07T10:00:00Z' });
    const detail = await call(t.lee, 'GET', `/activities/${made.body.id}`);
    expect(detail.body).toMatchObject({
      description: 'After',
      billable: false,
      started_at: '2026-11-07T10:00:00.000000Z',
      time_spent: '1h',
      edited_at: expect.any(String),
    });
    const [created, updated] = detail.body.history;
    expect(created).toMatchObject({ kind: 'created', actor: { name: 'Lee Lead' }, via: 'Lee agent', changes: [] });
    expect(updated.kind).toBe('updated');
    expect(updated.changes).toEqual(
      expect.arrayContaining([
        { field: 'description', from: 'Before', to: 'After' },
        { field: 'billable', from: true, to: false },
        { field: 'started_at', from: '2026-11-07T09:00:00.000Z', to: '2026-11-07T10:00:00.000Z' },
      ]),
    );
  });
});

describe('4.6 lists: newest first, days counted in the zone the answer names, limit and offset', () => {
  it("counts days in the member's zone when none is given, and says which", async () => {
    // 23:30 UTC on 7 November is already 8 November in Berlin
    const late = await create(t.lee, { start: '2026-11-07T23:30:00Z', duration: '15m', description: 'Late' });
    const berlin = await call(t.lee, 'GET', '/activities?from=2026-11-08&to=2026-11-08');
    expect(berlin.body.timezone).toBe('Europe/Berlin');
    expect(berlin.body.activities.map((a: { id: string }) => a.id)).toContain(late.body.id);
    const utc = await call(t.lee, 'GET', '/activities?from=2026-11-08&to=2026-11-08&timezone=UTC');
    expect(utc.body.activities.map((a: { id: string }) => a.id)).not.toContain(late.body.id);
    const all = (await call(t.lee, 'GET', '/activities?limit=100')).body.activities as { started_at: string }[];
    expect(all.map((a) => a.started_at)).toEqual([...all.map((a) => a.started_at)].sort().reverse());
    const page = await call(t.lee, 'GET', '/activities?limit=2&offset=1');
    expect(page.body).toMatchObject({ limit: 2, offset: 1 });
    expect(page.body.activities).toEqual(all.slice(1, 3));
  });

  it('refuses to before from, and a limit over 100', async () => {
    expect((await call(t.lee, 'GET', '/activities?from=2026-11-08&to=2026-11-01')).body.error.message).toBe(
      '/to: 2026-11-01 is before from (2026-11-08)',
    );
    expect((await call(t.lee, 'GET', '/activities?limit=101')).status).toBe(422);
  });
});

describe('4.8 the time tools: the same answers and errors as REST; delete_activity alone destructive; read tokens get the read ones', () => {
  it('offers nine tools to a write token, four to a read token', async () => {
    const TOOLS = [
      'list_activities',
      'get_activity',
      'create_activity',
      'update_activity',
      'delete_activity',
      'stop_activity',
      'list_organizations',
      'list_phases',
      'report_hours',
    ];
    const { postMcp, request } = await import('../mcp/mcp-client.ts');
    const tools = (await postMcp(service, request('tools/list'), { token: t.lee })).body.result.tools as {
      name: string;
      annotations: Record<string, boolean>;
    }[];
    const mine = tools.filter((tool) => TOOLS.includes(tool.name));
    expect(mine.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of mine) expect(tool.annotations.destructiveHint, tool.name).toBe(tool.name === 'delete_activity');
    const read = (await postMcp(service, request('tools/list'), { token: t.leeRead })).body.result.tools.map(
      (tool: { name: string }) => tool.name,
    );
    expect(TOOLS.filter((name) => read.includes(name))).toEqual([
      'list_activities',
      'get_activity',
      'list_organizations',
      'list_phases',
      'report_hours',
    ]);
  });

  it('tells the agent, on initialize, which time zone its local times are read in', async () => {
    const { postMcp, request } = await import('../mcp/mcp-client.ts');
    const reply = await postMcp(
      service,
      request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }),
      { token: t.dev1 },
    );
    expect(reply.body.result.instructions).toContain("read in your member's time zone, America/New_York, unless you give `timezone`");
  });

  it('answers a tool as REST answers the same request', async () => {
    const made = await create(t.lee, { start: '2026-11-08T09:00:00Z', duration: '1h' });
    const tool = await callTool(service, t.lee, 'get_activity', { id: made.body.id });
    expect(tool.structuredContent).toEqual((await call(t.lee, 'GET', `/activities/${made.body.id}`)).body);
    const refused = await callTool(service, t.vic, 'create_activity', { start: '2026-11-08T09:00:00Z', duration: '1h', project: 'CORE' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain('You may not log time in project CORE: it needs time:log');
    const organizations = await callTool(service, t.vic, 'list_organizations', {});
    expect(organizations.structuredContent).toEqual((await call(t.vic, 'GET', '/organizations')).body);
    expect(organizations.structuredContent.organizations).toEqual([
      { id: expect.any(String), name: 'Acme GmbH', domains: ['acme.example'] },
      { id: expect.any(String), name: 'Globex', domains: ['globex.example', 'globex.test'] },
    ]);
  });
});

// the clock is the service's: a timer with no start starts now
describe('3.3 a timer with no start starts at the service’s now', () => {
  it('starts at the clock', async () => {
    clock.at = new Date('2026-11-11T07:15:00Z');
    const made = await create(t.olga, {});
    expect(made.body).toMatchObject({ started_at: '2026-11-11T07:15:00.000000Z', running: true });
  });
});
