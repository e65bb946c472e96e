import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackground, type Background } from '../../src/notifications/background.ts';
import type { Database } from '../../src/storage/database.ts';
import { openAnotherNode, postgresServerUrl } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startSmtpServer } from './smtp.ts';

// ADR 0022: with two nodes running on one PostgreSQL, each with its own connection pool and its
// own mail worker polling on real timers, every notification reaches the SMTP server exactly once.
// Runs in the PostgreSQL pass of CI: PGlite is one process with one data folder by design.
const serverUrl = postgresServerUrl();
const MAIL = { from: 'Atrium <atrium@example.com>' };
const COMMENTS = 40;

describe.runIf(serverUrl !== null)('email with two nodes running: every notification delivered exactly once', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let service: TestService;
  let secondDatabase: Database;
  const nodes: Background[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const mail = { ...MAIL, smtpUrl: smtp.url };
    service = await startTestService({ mail });
    secondDatabase = await openAnotherNode(service.db);
    for (const database of [service.database, secondDatabase]) {
      nodes.push(
        startBackground({
          database,
          mail,
          publicUrl: service.publicUrl,
          log: service.app.log,
          now: () => new Date(),
          mailSeconds: 0.02,
          reminderSeconds: 3600,
        }),
      );
    }
  });
  afterAll(async () => {
    for (const node of nodes) await node.stop();
    await secondDatabase?.close();
    await service?.close();
    await smtp?.close();
  });

  it(`sends each of ${COMMENTS} comment notifications once while both nodes' workers claim`, async () => {
    const lee = await service.token('lee@example.com');
    const ada = await service.token('ada@example.com');
    const keys: string[] = [];
    for (let i = 0; i < COMMENTS; i += 1) {
      const ticket = await service.request('POST', '/api/v1/tickets', {
        token: lee,
        body: { project: 'CORE', summary: `Mailed across nodes ${i}` },
      });
      expect(ticket.status, ticket.text).toBe(201);
      keys.push(ticket.body.key);
    }
    // Comments in parallel bursts, so that the two workers find several rows queued at once.
    await Promise.all(
      keys.map(async (key) => {
        const comment = await service.request('POST', `/api/v1/tickets/${key}/comments`, { token: ada, body: { body: `About ${key}` } });
        expect(comment.status, comment.text).toBe(201);
      }),
    );

    const queued = () => service.db.selectFrom('notifications').select('email_state').where('kind', '=', 'commented').execute();
    await expect
      .poll(async () => (await queued()).filter((n) => n.email_state !== 'sent').length, { timeout: 30_000, interval: 100 })
      .toBe(0);
    // A few more rounds of both workers: nothing is sent again.
    await Promise.all(nodes.map((node) => node.runOnce()));

    const commentMails = smtp.received.filter((m) => m.subject.startsWith('[Atrium] Ada Admin commented on '));
    const perKey = new Map<string, number>();
    for (const m of commentMails) {
      const key = m.subject.slice('[Atrium] Ada Admin commented on '.length);
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
    }
    console.log(`two nodes: ${(await queued()).length} notifications, ${commentMails.length} emails received for ${perKey.size} tickets`);
    expect([...perKey.keys()].sort()).toEqual([...keys].sort());
    expect([...perKey.values()].every((n) => n === 1)).toBe(true);
    expect(commentMails).toHaveLength(COMMENTS);
    expect(commentMails.every((m) => m.to === 'lee@example.com')).toBe(true);
  });
});
