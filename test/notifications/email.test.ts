import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailWorker, MAX_ATTEMPTS, type MailTransport } from '../../src/notifications/mail-worker.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { startSmtpServer } from './smtp.ts';

// ADR 0022: with SMTP_URL set, each notification goes out by email exactly once (two
// workers claiming at once, as two nodes would), retried with backoff, failures kept visible.
// Tested against a real SMTP server on 127.0.0.1, never a mock of the sender.

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let service: TestService;
let tokens: Record<string, string>;
let transport: MailTransport;
const now = { at: new Date('2026-11-24T09:00:00Z') };

const worker = () =>
  new MailWorker({
    db: service.db,
    transport,
    from: 'Atrium <atrium@example.com>',
    publicUrl: service.publicUrl,
    log: service.app.log,
    now: () => now.at,
  });

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startTestService({ mail: { smtpUrl: smtp.url, from: 'Atrium <atrium@example.com>' } });
  transport = nodemailer.createTransport(smtp.url) as MailTransport;
  tokens = { lee: await service.token('lee@example.com'), ada: await service.token('ada@example.com') };
});
afterAll(async () => {
  transport?.close?.();
  await service?.close();
  await smtp?.close();
});

async function commentOnNewTicket(text: string): Promise<string> {
  const ticket = await service.request('POST', '/api/v1/tickets', {
    token: tokens.lee,
    body: { project: 'CORE', summary: `Mail ${text}` },
  });
  const comment = await service.request('POST', `/api/v1/tickets/${ticket.body.key}/comments`, { token: tokens.ada, body: { body: text } });
  expect(comment.status).toBe(201);
  return ticket.body.key;
}

describe('email: each notification is sent once, even with two workers claiming at the same moment', () => {
  it('delivers a comment on a watched ticket to the watcher, once, with who, the agent and the link', async () => {
    const key = await commentOnNewTicket('Please have a look at the mail path');
    const [a, b] = await Promise.all([worker().runOnce(), worker().runOnce()]);
    expect(a + b).toBe(1);
    expect(await worker().runOnce()).toBe(0);
    const mine = smtp.received.filter((m) => m.subject.includes(key));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.to).toBe('lee@example.com');
    expect(mine[0]!.subject).toBe(`[Atrium] Ada Admin commented on ${key}`);
    expect(mine[0]!.text).toContain('Please have a look at the mail path');
    expect(mine[0]!.text).toContain('Through test agent.');
    expect(mine[0]!.text).toContain(`${service.publicUrl}/browse/${key}`);
    const stored = await service.db
      .selectFrom('notifications')
      .select(['email_state', 'delivered_at'])
      .where('kind', '=', 'commented')
      .execute();
    expect(stored.every((n) => n.email_state === 'sent' && n.delivered_at !== null)).toBe(true);
  });
});

describe('email: a refusal is retried with backoff, and after enough attempts kept as failed with its reason', () => {
  it('backs off, then gives up and says why', async () => {
    smtp.refuse.on = true;
    try {
      const key = await commentOnNewTicket('This one will not get through');
      const row = () =>
        service.db
          .selectFrom('notifications')
          .select(['email_state', 'email_attempts', 'email_next_at', 'email_error'])
          .where(sql<string>`payload->>'key'`, '=', key)
          .executeTakeFirstOrThrow();
      expect(await worker().runOnce()).toBe(1);
      let stored = await row();
      expect(stored).toMatchObject({ email_state: 'queued', email_attempts: 1 });
      expect(stored.email_error).toMatch(/451/);
      // not before its time
      expect(await worker().runOnce()).toBe(0);
      for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt += 1) {
        now.at = new Date(now.at.getTime() + 3_600_000);
        expect(await worker().runOnce()).toBe(1);
      }
      stored = await row();
      expect(stored).toMatchObject({ email_state: 'failed', email_attempts: MAX_ATTEMPTS, email_next_at: null });
      now.at = new Date(now.at.getTime() + 86_400_000);
      expect(await worker().runOnce()).toBe(0);
    } finally {
      smtp.refuse.on = false;
    }
  });
});

describe('email: without SMTP_URL nothing is queued, and nothing queues for ever', () => {
  it('writes notifications that want no email', async () => {
    const quiet = await startTestService();
    try {
      const lee = await quiet.token('lee@example.com');
      const ada = await quiet.token('ada@example.com');
      const ticket = await quiet.request('POST', '/api/v1/tickets', { token: lee, body: { project: 'CORE', summary: 'No mail here' } });
      await quiet.request('POST', `/api/v1/tickets/${ticket.body.key}/comments`, { token: ada, body: { body: 'Hello' } });
      const rows = await quiet.db.selectFrom('notifications').select('email_state').execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.email_state === 'none')).toBe(true);
    } finally {
      await quiet.close();
    }
  });
});
