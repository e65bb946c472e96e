import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { PROBE_RECORD_ID, probeRegistry } from './probe-operations.ts';

let service: TestService;
let token: string;
let memberId: string;

beforeAll(async () => {
  service = await startTestService({ registry: probeRegistry });
  token = await service.token('dev1@example.com', 'write', 'Release bot');
  memberId = (await service.request('GET', '/api/v1/me', { token })).body.user.id;
});

afterAll(async () => {
  await service?.close();
});

/** The history of the probe record, oldest first (the API has no history endpoint: spec 1). */
const history = () => service.db.selectFrom('history').selectAll().where('entity_id', '=', PROBE_RECORD_ID).orderBy('at').execute();

const record = (value: string, fail?: 'known' | 'unexpected') =>
  service.request('POST', '/api/v1/probe/record', { token, body: { value, ...(fail ? { fail } : {}) } });

describe('history: a change is recorded under the member with the token name beside it (spec 1, 6)', () => {
  it('records the record, the member, the token name, the time and the field changes', async () => {
    const before = Date.now();
    expect((await record('first')).status).toBe(200);
    const rows = await history();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      entity_type: 'probe',
      entity_id: PROBE_RECORD_ID,
      kind: 'updated',
      actor_id: memberId,
      via: 'Release bot',
      changes: [{ field: 'value', from: null, to: 'first' }],
    });
    expect(new Date(rows[0]!.at).getTime()).toBeGreaterThanOrEqual(before - 5_000);
  });
});

describe('history: the entry commits or rolls back with the change, in the same transaction', () => {
  it('keeps nothing when the operation is refused after recording', async () => {
    const reply = await record('refused', 'known');
    expect(reply.status).toBe(422);
    expect((await history()).map((row) => row.changes[0]!.to)).not.toContain('refused');
  });

  it('keeps nothing when the operation fails unexpectedly after recording', async () => {
    const reply = await record('crashed', 'unexpected');
    expect(reply.status).toBe(500);
    expect((await history()).map((row) => row.changes[0]!.to)).not.toContain('crashed');
  });

  it('goes on recording after a rollback', async () => {
    expect((await record('second')).status).toBe(200);
    expect((await history()).map((row) => row.changes[0]!.to)).toEqual(['first', 'second']);
  });
});
