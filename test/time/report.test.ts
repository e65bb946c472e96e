import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../helpers/service.ts';
import { api, callTool, startTime, type TimeTokens } from './support.ts';

let service: TestService;
let t: TimeTokens;
let call: ReturnType<typeof api>;

// Dev One's November in CORE for Acme (phase "Acme 2026 H2", 120 EUR an hour), and a Globex hour (80.50 USD)
const WEEK = [
  { start: '2026-11-02T09:00:00Z', duration: '2h', project: 'CORE', customer: 'Acme GmbH', tags: ['dev'] },
  { start: '2026-11-03T09:00:00Z', duration: '1h 30m', project: 'CORE', customer: 'Acme GmbH', tags: ['dev', 'review'], billable: false },
  { start: '2026-11-10T09:00:00Z', duration: '3h', project: 'CORE', customer: 'Acme GmbH' },
  { start: '2026-11-11T09:00:00Z', duration: '1h', customer: 'Globex', tags: ['call'] },
];

beforeAll(async () => {
  ({ service, t } = await startTime());
  call = api(service);
  for (const body of WEEK) expect((await call(t.dev1, 'POST', '/activities', body)).status).toBe(201);
  // running: not counted until it stops
  expect((await call(t.dev1, 'POST', '/activities', { start: '2026-11-10T09:30:00Z' })).status).toBe(201);
});
afterAll(() => service.close());

const report = (token: string, query: string) => call(token, 'GET', `/reports/hours?${query}`);

describe('4.6 report: totals equal the sum of the listed activities', () => {
  it('sums what list_activities lists for the same days and filters', async () => {
    const query = 'from=2026-11-01&to=2026-11-30&timezone=UTC&member=me';
    const listed = (await call(t.dev1, 'GET', `/activities?${query}&running=false&limit=100`)).body.activities as {
      time_spent_seconds: number;
      billable: boolean;
    }[];
    const answer = (await report(t.dev1, query)).body;
    expect(answer).toMatchObject({ from: '2026-11-01', to: '2026-11-30', timezone: 'UTC', group_by: [] });
    expect(answer.total.seconds).toBe(listed.reduce((sum, a) => sum + a.time_spent_seconds, 0));
    expect(answer.total.billable_seconds).toBe(listed.filter((a) => a.billable).reduce((sum, a) => sum + a.time_spent_seconds, 0));
    expect(answer.total.activities).toBe(listed.length);
    expect(answer.total.seconds).toBe((2 + 1.5 + 3 + 1) * 3600);
  });
});

describe('4.6 report: grouped by up to two of day, week, month, member, project, customer, ticket, tag, phase', () => {
  it('groups by project and ISO week, in key order, with no project last', async () => {
    const answer = (await report(t.dev1, 'from=2026-11-01&to=2026-11-30&timezone=UTC&group_by=project,week')).body;
    expect(answer.groups.map((g: { key: object; seconds: number }) => [g.key, g.seconds])).toEqual([
      [{ project: 'CORE', week: '2026-W45' }, 3.5 * 3600],
      [{ project: 'CORE', week: '2026-W46' }, 3 * 3600],
      [{ project: null, week: '2026-W46' }, 3600],
    ]);
  });

  it("counts for Lee only what Lee may see of Dev One's time: CORE, where Lee holds time:view_all", async () => {
    const answer = (await report(t.lee, 'from=2026-11-01&to=2026-11-30&timezone=UTC&group_by=project&member=Dev%20One')).body;
    expect(answer.groups.map((g: { key: object; seconds: number }) => [g.key, g.seconds])).toEqual([[{ project: 'CORE' }, 6.5 * 3600]]);
  });

  it('counts an activity in each of its tags, and once in the total', async () => {
    const answer = (await report(t.dev1, 'from=2026-11-01&to=2026-11-30&timezone=UTC&group_by=tag')).body;
    const byTag = Object.fromEntries(
      answer.groups.map((g: { key: { tag: string | null }; seconds: number }) => [g.key.tag ?? '(none)', g.seconds]),
    );
    expect(byTag).toEqual({ call: 3600, dev: 3.5 * 3600, review: 1.5 * 3600, '(none)': 3 * 3600 });
    expect(answer.total.seconds).toBe(7.5 * 3600);
  });

  it('puts a day in the zone asked: 23:30 UTC is the next day in Berlin', async () => {
    await call(t.olga, 'POST', '/activities', { start: '2026-11-20T23:30:00Z', duration: '1h' });
    const utc = (await report(t.olga, 'from=2026-11-20&to=2026-11-21&timezone=UTC&group_by=day')).body;
    const berlin = (await report(t.olga, 'from=2026-11-20&to=2026-11-21&timezone=Europe/Berlin&group_by=day')).body;
    expect(utc.groups.map((g: { key: { day: string } }) => g.key.day)).toEqual(['2026-11-20']);
    expect(berlin.groups.map((g: { key: { day: string } }) => g.key.day)).toEqual(['2026-11-21']);
  });

  it('puts weeks and months in the zone asked, weeks by ISO week-year, at the turn of a year', async () => {
    // Wednesday 31 December 2025 is in 2026-W01; Sunday 4 January 23:30 UTC is Monday in Berlin (W02)
    for (const start of ['2025-12-31T23:30:00Z', '2026-01-04T23:30:00Z']) {
      expect((await call(t.olga, 'POST', '/activities', { start, duration: '1h' })).status).toBe(201);
    }
    const keys = async (zone: string) =>
      (await report(t.olga, `from=2025-12-31&to=2026-01-05&timezone=${zone}&group_by=week,month`)).body.groups.map(
        (g: { key: { week: string; month: string }; seconds: number }) => [g.key.week, g.key.month, g.seconds],
      );
    expect(await keys('UTC')).toEqual([
      ['2026-W01', '2025-12', 3600],
      ['2026-W01', '2026-01', 3600],
    ]);
    expect(await keys('Europe/Berlin')).toEqual([
      ['2026-W01', '2026-01', 3600],
      ['2026-W02', '2026-01', 3600],
    ]);
  });

  it('refuses an unknown grouping naming the choices, and three groupings', async () => {
    const unknown = await report(t.dev1, 'group_by=year');
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toBe(
      '/group_by: "year" is not a grouping; group_by takes day, week, month, member, project, customer, ticket, tag, phase',
    );
    expect((await report(t.dev1, 'group_by=day,week,month')).body.error.message).toBe('/group_by: takes at most two groupings');
  });
});

describe('2.8 billing: rates and amounts only to members who may see billing (time:billing)', () => {
  it('gives an administrator amounts per currency at the phases’ rates', async () => {
    const answer = (await report(t.ada, 'from=2026-11-01&to=2026-11-30&timezone=UTC&member=Dev%20One&group_by=phase')).body;
    const phases = Object.fromEntries(answer.groups.map((g: { key: { phase: string }; amounts: unknown }) => [g.key.phase, g.amounts]));
    // 2h + 3h billable at 120 EUR; 1h at 80.50 USD
    expect(phases['Acme 2026 H2']).toEqual([{ currency: 'EUR', amount: '600.00' }]);
    expect(phases['Globex retainer']).toEqual([{ currency: 'USD', amount: '80.50' }]);
    expect(answer.total.amounts).toEqual([
      { currency: 'EUR', amount: '600.00' },
      { currency: 'USD', amount: '80.50' },
    ]);
  });

  it('hides amounts and rates from Dev One, who may not see billing', async () => {
    const answer = (await report(t.dev1, 'from=2026-11-01&to=2026-11-30&timezone=UTC&group_by=phase')).body;
    expect(answer.total.amounts).toBeNull();
    for (const group of answer.groups) expect(group.amounts).toBeNull();
    const phases = (await call(t.dev1, 'GET', '/phases')).body.phases as { name: string; rate: string | null; currency: string | null }[];
    expect(phases.map((p) => [p.name, p.rate, p.currency])).toEqual([
      ['Acme 2026 H2', null, null],
      ['Acme 2026 H1', null, null],
      ['Globex retainer', null, null],
    ]);
    const leePhases = (await call(t.lee, 'GET', '/phases?customer=Acme%20GmbH')).body.phases;
    expect(leePhases).toEqual([
      {
        id: expect.any(String),
        name: 'Acme 2026 H2',
        start_date: '2026-07-01',
        end_date: '2026-12-31',
        contract: { id: expect.any(String), name: 'Acme support' },
        customer: 'Acme GmbH',
        project: 'CORE',
        rate: '120.00',
        currency: 'EUR',
        max_days_available: 60,
        hours_per_day: '8',
      },
      {
        id: expect.any(String),
        name: 'Acme 2026 H1',
        start_date: '2026-01-01',
        end_date: '2026-06-30',
        contract: { id: expect.any(String), name: 'Acme support' },
        customer: 'Acme GmbH',
        project: 'CORE',
        rate: '100.00',
        currency: 'EUR',
        max_days_available: null,
        hours_per_day: '8',
      },
    ]);
  });

  it('gives Lee the amounts of the time Lee may see (CORE, where Lee holds time:billing)', async () => {
    const answer = (await report(t.lee, 'from=2026-11-01&to=2026-11-30&timezone=UTC&member=Dev%20One')).body;
    expect(answer.total.amounts).toEqual([{ currency: 'EUR', amount: '600.00' }]);
  });

  it('keeps billing for a read token (seeing is reading) through MCP too', async () => {
    const tool = await callTool(service, t.leeRead, 'list_phases', { customer: 'Globex' });
    expect(tool.structuredContent.phases[0]).toMatchObject({ name: 'Globex retainer', rate: '80.50', currency: 'USD' });
  });
});

describe('4.6 report: grouped by member, customer or ticket, each group shown by its name', () => {
  const october = 'from=2026-10-01&to=2026-10-31&timezone=UTC';
  let ticket = '';

  beforeAll(async () => {
    const created = await call(t.lee, 'POST', '/tickets', { project: 'CORE', summary: 'Time booked here' });
    expect(created.status, created.text).toBe(201);
    ticket = created.body.key;
    const october: [string, object][] = [
      [t.dev1, { start: '2026-10-05T09:00:00Z', duration: '1h', ticket, customer: 'Acme GmbH' }],
      [t.dev1, { start: '2026-10-06T09:00:00Z', duration: '2h', project: 'CORE' }],
      [t.lee, { start: '2026-10-05T10:00:00Z', duration: '30m', ticket, customer: 'Acme GmbH' }],
      [t.lee, { start: '2026-10-07T10:00:00Z', duration: '45m' }],
    ];
    for (const [token, body] of october) {
      const reply = await call(token, 'POST', '/activities', body);
      expect(reply.status, reply.text).toBe(201);
    }
  });

  const groupsOf = (answer: { groups: { key: object; seconds: number }[] }) => answer.groups.map((g) => [g.key, g.seconds]);

  it('names the member and the customer of each group, no customer last', async () => {
    expect(groupsOf((await report(t.ada, `${october}&group_by=member,customer`)).body)).toEqual([
      [{ member: 'Dev One', customer: 'Acme GmbH' }, 3600],
      [{ member: 'Dev One', customer: null }, 7200],
      [{ member: 'Lee Lead', customer: 'Acme GmbH' }, 1800],
      [{ member: 'Lee Lead', customer: null }, 2700],
    ]);
  });

  it('names the ticket of each group by its key, no ticket last', async () => {
    const answer = (await report(t.ada, `${october}&group_by=ticket`)).body;
    expect(groupsOf(answer)).toEqual([
      [{ ticket }, 5400],
      [{ ticket: null }, 9900],
    ]);
    expect(answer.total).toMatchObject({ seconds: 15300, activities: 4 });
  });
});

describe('4.6 report: by phase, only the time in that phase', () => {
  it('limits to the phase named', async () => {
    const answer = (await report(t.dev1, 'from=2026-01-01&to=2026-12-31&timezone=UTC&phase=Globex%20retainer')).body;
    expect(answer.total.seconds).toBe(3600);
    expect((await report(t.lee, 'phase=Nope')).body.error.message).toMatch(/^\/phase: no phase "Nope"; phases are /);
  });
});

describe('a filter value never lists names the member may not see: a phase is named among GET /phases', () => {
  it('lists to an outsider only the phases they see, and names none of the others, over REST and MCP', async () => {
    const seen = (await call(t.olga, 'GET', '/phases')).body.phases.map((p: { name: string }) => p.name);
    expect(seen).toEqual(['Globex retainer']);
    const miss = await report(t.olga, 'phase=zzz');
    expect(miss.status).toBe(422);
    expect(miss.body.error.message).toBe('/phase: no phase "zzz"; phases are "Globex retainer"');
    const hidden = await report(t.olga, 'phase=Acme%202026%20H2');
    expect(hidden.body.error.message).toBe('/phase: no phase "Acme 2026 H2"; phases are "Globex retainer"');
    const tool = await callTool(service, t.olga, 'report_hours', { phase: 'zzz' });
    expect(tool.isError).toBe(true);
    expect(tool.content[0]?.text).not.toMatch(/Acme/);
  });

  it('still names every phase to a member who sees them all', async () => {
    const message = (await report(t.lee, 'phase=zzz')).body.error.message as string;
    for (const name of ['Acme 2026 H2', 'Acme 2026 H1', 'Globex retainer']) expect(message).toContain(`"${name}"`);
  });
});

describe('a blank name filter is refused with 422, never resolved (REST and MCP)', () => {
  it('refuses project, customer, ticket, member and tag of spaces alone on lists, reports and phases', async () => {
    for (const [path, name] of [
      ['/activities', 'project'],
      ['/activities', 'customer'],
      ['/activities', 'ticket'],
      ['/activities', 'member'],
      ['/activities', 'tag'],
      ['/reports/hours', 'project'],
      ['/reports/hours', 'customer'],
      ['/reports/hours', 'ticket'],
      ['/reports/hours', 'phase'],
      ['/phases', 'customer'],
    ] as const) {
      const reply = await call(t.lee, 'GET', `${path}?${name}=%20%20`);
      expect(reply.status, `${path}?${name}: ${reply.text}`).toBe(422);
      expect(reply.body.error).toEqual({ code: 'invalid', message: `/${name}: must not be blank` });
    }
    const tools = [
      ['list_activities', 'project'],
      ['list_phases', 'customer'],
      ['report_hours', 'ticket'],
    ] as const;
    for (const [tool, name] of tools) {
      const result = await callTool(service, t.lee, tool, { [name]: ' ' });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toBe(`/${name}: must not be blank`);
    }
  });
});
