import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type Reply, type TestService } from '../helpers/service.ts';
import { callTool } from '../mcp/mcp-client.ts';

// Every date and time the API takes is held to the years 0001–9999 once in UTC, what every
// column holds: outside them it is refused with 422 `invalid` naming the field, and nothing is
// stored; inside them — the very first and last moments too — it is taken and stays usable.

let service: TestService;
let admin: string;

beforeAll(async () => {
  service = await startTestService({ workspace: '../../examples/demo-workspace.yaml' });
  admin = await service.token('admin@example.com');
}, 120_000);
afterAll(() => service?.close());

const api = (method: string, path: string, body?: unknown) =>
  service.request(method, `/api/v1${path}`, { token: admin, ...(body === undefined ? {} : { body }) });
const post = (path: string, body: unknown) => api('POST', path, body);

function expectRefused(reply: Reply, pointer: string): void {
  expect(reply.status, reply.text).toBe(422);
  expect(reply.body.error.code).toBe('invalid');
  expect(reply.body.error.message.startsWith(`${pointer}: `), reply.body.error.message).toBe(true);
}

const ids = (reply: Reply) => reply.body.activities.map((a: { id: string }) => a.id);
const myActivities = async () => ids(await api('GET', '/activities?member=me&limit=100'));

describe('lists and reports take any day of the years 0001–9999, in any zone', () => {
  const spans = ['to=9999-12-31', 'from=0001-01-01', 'from=0001-01-01&to=9999-12-31', 'from=9999-12-31&to=9999-12-31'];

  it.each(['/activities', '/reports/hours'])('%s from 0001-01-01 to 9999-12-31, east and west', async (path) => {
    for (const zone of ['UTC', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Europe/Berlin']) {
      for (const query of [...spans, 'from=0001-01-01&to=0001-01-01']) {
        const reply = await api('GET', `${path}?${query}&timezone=${encodeURIComponent(zone)}`);
        expect(reply.status, `${path}?${query} in ${zone}: ${reply.text}`).toBe(200);
      }
    }
  });

  it.each(['/activities', '/reports/hours'])('%s refuses a day outside them, naming it', async (path) => {
    expectRefused(await api('GET', `${path}?from=0000-12-31`), '/from');
    expectRefused(await api('GET', `${path}?to=10000-01-01`), '/to');
  });
});

describe('activities: a start or an end outside the years 0001–9999 in UTC is 422, and nothing is stored', () => {
  it('refuses an end after 9999 by duration, by a local end far west, and a local start in year 0', async () => {
    const before = await myActivities();
    expectRefused(await post('/activities', { start: '9999-12-31T23:59:59Z', duration: '1h' }), '/duration');
    const farWest = { start: '9999-12-31T10:00', end: '9999-12-31T23:59', timezone: 'Etc/GMT+12' };
    expectRefused(await post('/activities', farWest), '/end');
    const berlin = { start: '0001-01-01T00:00', duration: '1h', timezone: 'Europe/Berlin' };
    expectRefused(await post('/activities', berlin), '/start');
    expectRefused(await post('/activities', { start: '0001-01-01T00:30:00+01:00', duration: '1h' }), '/start');
    expectRefused(await post('/activities', { start: '0000-06-01T00:00:00Z', duration: '1h' }), '/start');
    expectRefused(await post('/activities', { start: '9999-12-31', end: '10000-01-01', timezone: 'UTC' }), '/end');
    expect(await myActivities()).toEqual(before);
  });

  it('takes the first and last moments, and they stay changeable and listed', async () => {
    const first = await post('/activities', { start: '0001-01-01T00:00:00Z', duration: '1h' });
    expect(first.status, first.text).toBe(201);
    expect(first.body.started_at).toBe('0001-01-01T00:00:00.000000Z');
    const farWest = { start: '9999-12-31T10:00', end: '9999-12-31T11:59', timezone: 'Etc/GMT+12' };
    const last = await post('/activities', farWest);
    expect(last.status, last.text).toBe(201);
    expect(last.body.ended_at).toBe('9999-12-31T23:59:00.000000Z');
    for (const id of [first.body.id, last.body.id]) {
      const changed = await api('PATCH', `/activities/${id}`, { description: 'Still here' });
      expect(changed.status, changed.text).toBe(200);
      expect((await api('GET', `/activities/${id}`)).status).toBe(200);
    }
    // moving the last one later keeps its length, which would end it after 9999
    expectRefused(await api('PATCH', `/activities/${last.body.id}`, { start: '9999-12-31T23:30:00Z' }), '/start');
    const all = await api('GET', '/activities?member=me&from=0001-01-01&to=9999-12-31&timezone=UTC&limit=100');
    expect(ids(all)).toEqual(expect.arrayContaining([first.body.id, last.body.id]));
    expect((await api('GET', '/reports/hours?from=0001-01-01&to=9999-12-31&timezone=UTC')).status).toBe(200);
  });

  it('refuses a stop after 9999, and through MCP the same', async () => {
    const running = await post('/activities', { start: '9999-12-31T20:00:00Z' });
    expect(running.status, running.text).toBe(201);
    const stop = `/activities/${running.body.id}/stop`;
    expectRefused(await post(stop, { end: '23:59', timezone: 'Etc/GMT+12' }), '/end');
    expect((await api('GET', `/activities/${running.body.id}`)).body.running).toBe(true);
    expect((await post(stop, { end: '9999-12-31T21:00:00Z' })).status).toBe(200);
    const tool = await callTool(service, admin, 'create_activity', { start: '9999-12-31T23:59:59Z', duration: '1h' });
    expect(tool.isError).toBe(true);
    expect(tool.content[0]?.text).toBe('/duration: makes the activity end after the year 9999 (in UTC)');
  });
});

describe('tickets: due dates, date fields and worklog starts in the years 0001–9999', () => {
  it('refuses year 0 and year 10000 naming the field, and takes the bounds', async () => {
    const early = { project: 'ATR', summary: 'Too early', due_date: '0000-01-01' };
    expectRefused(await post('/tickets', early), '/due_date');
    expectRefused(await api('PATCH', '/tickets/ATR-1', { due_date: '0000-12-31' }), '/due_date');
    const field = { fields: { target_date: '0000-01-01' } };
    expectRefused(await api('PATCH', '/tickets/ATR-1', field), '/fields/target_date');
    for (const startedAt of ['0001-01-01T00:30:00+01:00', '9999-12-31T23:00:00-02:00']) {
      expectRefused(await post('/tickets/ATR-1/worklogs', { time_spent: '1h', started_at: startedAt }), '/started_at');
    }
    const fields = { target_date: '0001-01-01' };
    const ahead = { project: 'ATR', summary: 'Ahead', type: 'Story', due_date: '9999-12-31', fields };
    const due = await post('/tickets', ahead);
    expect(due.status, due.text).toBe(201);
    const work = { time_spent: '1h', started_at: '0001-01-01T00:00:00Z' };
    const logged = await post(`/tickets/${due.body.key}/worklogs`, work);
    expect(logged.status, logged.text).toBe(201);
    expect((await api('GET', `/tickets/${due.body.key}`)).status).toBe(200);
  });
});

describe('sprints: dates in the years 0001–9999', () => {
  it('refuses a start in year 0 and an end in year 10000 in UTC, naming the field', async () => {
    expectRefused(await post('/boards/1/sprints', { name: 'Ancient', start_date: '0000-01-01' }), '/start_date');
    const endless = { name: 'Endless', end_date: '9999-12-31T23:00:00-05:00' };
    expectRefused(await post('/boards/1/sprints', endless), '/end_date');
    expectRefused(await api('PATCH', '/boards/1/sprints/Sprint%2015', { end_date: '10000-01-01' }), '/end_date');
    const wide = { name: 'Far', start_date: '0001-01-01', end_date: '9999-12-31T23:59:59Z' };
    const far = await post('/boards/1/sprints', wide);
    expect(far.status, far.text).toBe(201);
    expect((await api('GET', '/boards/1/sprints')).status).toBe(200);
  });
});

describe('interactions: occurred_at and due_at in the years 0001–9999 in UTC', () => {
  const about = { subject: 'Edge', company: 'Initech' };

  it('refuses a local moment that is year 10000 in UTC and an offset moment in year 0, REST and MCP', async () => {
    const before = (await api('GET', '/interactions?company=Initech')).body.interactions;
    const farWest = { ...about, kind: 'note', occurred_at: '9999-12-31T23:59', timezone: 'Etc/GMT+12' };
    expectRefused(await post('/interactions', farWest), '/occurred_at');
    const early = { ...about, kind: 'task', due_at: '0001-01-01T00:00:00+00:01' };
    expectRefused(await post('/interactions', early), '/due_at');
    const late = { ...about, kind: 'call', occurred_at: '10000-01-01T00:00:00Z' };
    const tool = await callTool(service, admin, 'log_interaction', late);
    expect(tool.isError).toBe(true);
    expect(tool.content[0]?.text).toMatch(/^\/occurred_at: /);
    expect((await api('GET', '/interactions?company=Initech')).body.interactions).toEqual(before);
  });

  it('takes the last moment, and lists it', async () => {
    const task = await post('/interactions', { ...about, kind: 'task', due_at: '9999-12-31T23:59:59Z' });
    expect(task.status, task.text).toBe(201);
    expect((await api('GET', '/follow-ups')).status).toBe(200);
    expect((await api('GET', '/interactions?company=Initech')).status).toBe(200);
  });
});

describe('a time zone Node knows but the database does not is refused with 422, never used', () => {
  // US/Pacific-New left the zone data in 2020; ICU still reads it
  const zone = 'US/Pacific-New';

  it('in lists, reports, activities and interactions', async () => {
    for (const path of ['/activities?from=2026-11-01&timezone=', '/reports/hours?timezone=']) {
      expectRefused(await api('GET', `${path}${encodeURIComponent(zone)}`), '/timezone');
    }
    const local = { start: '2026-11-18T09:00', duration: '1h' };
    for (const times of [local, { start: '2026-11-18T09:00:00Z', end: '10:00' }]) {
      expectRefused(await post('/activities', { ...times, timezone: zone }), '/timezone');
    }
    const note = { kind: 'note', subject: 'Zone', company: 'Initech', occurred_at: '2026-11-18T09:00', timezone: zone };
    expectRefused(await post('/interactions', note), '/timezone');
  });
});
