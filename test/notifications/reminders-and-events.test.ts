import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { scheduleReminder } from '../../src/core/notifications.ts';
import { startBackground } from '../../src/notifications/background.ts';
import type { ChangeEvent } from '../../src/notifications/live-events.ts';
import type { Database } from '../../src/storage/database.ts';
import { openAnotherNode, postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

// ADR 0022: reminders fire once at their time, across restarts and nodes; every
// committed change is announced to the open pages' event streams — after commit, never on rollback.

let service: TestService;
let token: string;
let leeId: string;
let ticketId: string;

beforeAll(async () => {
  service = await startTestService();
  token = await service.token('lee@example.com');
  leeId = (await service.db.selectFrom('members').select('id').where('email', '=', 'lee@example.com').executeTakeFirstOrThrow()).id;
  const ticket = await service.request('POST', '/api/v1/tickets', { token, body: { project: 'CORE', summary: 'Reminded about' } });
  ticketId = (await service.db.selectFrom('tickets').select('id').where('key', '=', ticket.body.key).executeTakeFirstOrThrow()).id;
});
afterAll(() => service?.close());

const reminderNotifications = () =>
  service.db.selectFrom('notifications').select(['member_id', 'payload']).where('kind', '=', 'reminder').execute();

describe('reminders: fire once at their time, however many nodes look and however often the service restarts', () => {
  it('does nothing before the time, fires once when due (two nodes looking at once), never again', async () => {
    await service.db.transaction().execute((trx) =>
      scheduleReminder(trx, {
        memberId: leeId,
        entityType: 'ticket',
        entityId: ticketId,
        kind: 'follow_up',
        payload: { subject: 'Call back' },
        dueAt: '2026-11-24T10:00:00Z',
      }),
    );
    const at = (time: string) =>
      startBackground({
        database: service.database,
        mail: null,
        publicUrl: service.publicUrl,
        log: service.app.log,
        now: () => new Date(time),
        reminderSeconds: 3600,
      });

    const early = at('2026-11-24T09:59:59Z');
    expect((await early.runOnce()).reminders).toBe(0);
    await early.stop();
    expect(await reminderNotifications()).toEqual([]);

    // two nodes' schedulers at the same moment (each also looks once as it starts)
    const [a, b] = [at('2026-11-24T10:00:01Z'), at('2026-11-24T10:00:01Z')];
    await Promise.all([a.runOnce(), b.runOnce()]);
    await Promise.all([a.stop(), b.stop()]);
    expect(await reminderNotifications()).toHaveLength(1);

    // a restart later: nothing fires twice
    const restarted = at('2026-11-25T08:00:00Z');
    expect((await restarted.runOnce()).reminders).toBe(0);
    await restarted.stop();
    const sent = await reminderNotifications();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ member_id: leeId, payload: { subject: 'Call back', reminder: 'follow_up' } });
  });

  it('fires a reminder that came due while no node ran, at the next start', async () => {
    await service.db.transaction().execute((trx) =>
      scheduleReminder(trx, {
        memberId: leeId,
        entityType: 'ticket',
        entityId: ticketId,
        kind: 'follow_up',
        payload: { subject: 'Missed while down' },
        dueAt: '2026-01-01T00:00:00Z',
      }),
    );
    const background = startBackground({
      database: service.database,
      mail: null,
      publicUrl: service.publicUrl,
      log: service.app.log,
      now: () => new Date('2026-11-24T12:00:00Z'),
      reminderSeconds: 3600,
    });
    await background.stop();
    expect((await reminderNotifications()).map((n) => (n.payload as { subject: string }).subject)).toContain('Missed while down');
  });
});

/** Collects the events one app hears until `until` holds (or a second passes). */
async function hear(app: FastifyInstance, act: () => Promise<unknown>, until: (events: ChangeEvent[]) => boolean): Promise<ChangeEvent[]> {
  const heard: ChangeEvent[] = [];
  const stop = app.liveEvents.subscribe((event) => heard.push(event));
  await app.liveEvents.ready();
  try {
    await act();
    for (let waited = 0; waited < 1000 && !until(heard); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    return heard;
  } finally {
    stop();
  }
}

describe('live events: every committed change is announced to the open pages, never a refused one', () => {
  it('hears a comment made through REST within a second, with the ticket key', async () => {
    const key = (await service.request('GET', `/api/v1/tickets?project=CORE`, { token })).body.tickets[0].key;
    const heard = await hear(
      service.app,
      () => service.request('POST', `/api/v1/tickets/${key}/comments`, { token, body: { body: 'Live' } }),
      (e) => e.length > 0,
    );
    expect(heard.map((e) => ({ type: e.entityType, kind: e.kind, key: e.ticket?.key }))).toContainEqual({
      type: 'ticket',
      kind: 'commented',
      key,
    });
  });

  it('hears nothing of a refused change', async () => {
    const heard = await hear(
      service.app,
      () => service.request('POST', '/api/v1/tickets', { token, body: { project: 'CORE', summary: 'x', type: 'Nope' } }),
      () => false,
    );
    expect(heard).toEqual([]);
  });
});

const serverUrl = postgresServerUrl();
describe.runIf(serverUrl !== null)('live events across nodes (PostgreSQL LISTEN/NOTIFY)', () => {
  let otherDatabase: Database;
  let other: FastifyInstance;

  beforeAll(async () => {
    otherDatabase = await openAnotherNode(service.db);
    other = await buildApp({ config: { publicUrl: service.publicUrl, logLevel: 'silent' }, database: otherDatabase });
  });
  afterAll(async () => {
    await other?.close();
    await otherDatabase?.close();
  });

  it('a change on one node is heard by the other', async () => {
    const created = await hear(
      other,
      () => service.request('POST', '/api/v1/tickets', { token, body: { project: 'CORE', summary: 'Seen across nodes' } }),
      (e) => e.some((x) => x.kind === 'created'),
    );
    expect(created.some((e) => e.kind === 'created' && e.ticket?.key.startsWith('CORE-'))).toBe(true);
  });
});
