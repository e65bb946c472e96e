import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';

let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService({ workspace: 'tickets-workspace.yaml' });
  token = await service.token('lee@example.com');
});
afterAll(() => service.close());

const create = (summary: string, extra: Record<string, unknown> = {}) =>
  service.request('POST', '/api/v1/tickets', { token, body: { project: 'TIX', summary, ...extra } });

describe('ticket numbers: per project, never repeated, never skipped', () => {
  it('gives 50 concurrent creates 50 distinct consecutive keys after the seeds', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => create(`Concurrent ${i}`)));
    expect(replies.every((r) => r.status === 201)).toBe(true);
    const numbers = replies.map((r) => Number(r.body.key.split('-')[1])).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => 6 + i));
  });

  it('does not use up a number when a create is refused', async () => {
    expect((await create('Refused', { fields: { nope: 1 } })).status).toBe(422);
    expect((await create('Next')).body.key).toBe('TIX-56');
  });

  it('numbers each project on its own', async () => {
    const reply = await service.request('POST', '/api/v1/tickets', { token, body: { project: 'OTHER', summary: 'Elsewhere' } });
    expect(reply.body.key).toBe('OTHER-2');
  });
});

describe('no duplicate keys under 32 concurrent creates into one project', () => {
  it('numbers them one after the other even with refused creates among them', async () => {
    const before = Number((await create('Before the burst')).body.key.split('-')[1]);
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 5 === 4 ? create(`Refused ${i}`, { fields: { nope: 1 } }) : create(`Burst ${i}`))),
    );
    expect(replies.filter((r) => r.status === 422)).toHaveLength(8);
    const created = replies.filter((r) => r.status === 201);
    const numbers = created.map((r) => Number(r.body.key.split('-')[1])).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 32 }, (_, i) => before + 1 + i));
    expect((await create('After the burst')).body.key).toBe(`TIX-${before + 33}`);
  });

  it('answers eight creates into one project at once that each add a label the project lacks (each in a transaction of its own)', async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => create(`New label ${i}`, { labels: [`fresh-${i}`] })));
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 8 }, () => 201));
    expect(replies.map((r) => r.body.labels)).toEqual(Array.from({ length: 8 }, (_, i) => [`fresh-${i}`]));
  });

  it('gives each of 32 creates, two projects interleaved, its own key, named the same in its answer, its row and its history', async () => {
    const replies = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        service.request('POST', '/api/v1/tickets', {
          token,
          body: { project: i % 2 ? 'OTHER' : 'TIX', summary: `Interleaved ${i}`, labels: [`burst-${i % 4}`] },
        }),
      ),
    );
    expect(replies.every((r) => r.status === 201)).toBe(true);
    const keys = replies.map((r) => r.body.key as string);
    expect(new Set(keys).size).toBe(32);
    for (const project of ['TIX', 'OTHER']) {
      const numbers = keys
        .filter((k) => k.startsWith(`${project}-`))
        .map((k) => Number(k.split('-')[1]))
        .sort((a, b) => a - b);
      expect(numbers).toHaveLength(16);
      expect(numbers.at(-1)! - numbers[0]!).toBe(15);
    }
    const rows = await service.db
      .selectFrom('tickets as t')
      .innerJoin('history as h', (join) => join.onRef('h.entity_id', '=', 't.id').on('h.kind', '=', 'created'))
      .select(['t.key', 't.number', 't.summary', 'h.changes'])
      .where('t.key', 'in', keys)
      .execute();
    expect(rows).toHaveLength(32);
    for (const row of rows) {
      const reply = replies.find((r) => r.body.key === row.key)!;
      expect(reply.body.summary).toBe(row.summary);
      expect(row.key.endsWith(`-${row.number}`)).toBe(true);
      expect((row.changes as { field: string; to: unknown }[])[0]).toEqual({ field: 'key', from: null, to: row.key });
    }
  });
});
