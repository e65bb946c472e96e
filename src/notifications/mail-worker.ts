import { sql, type Kysely } from 'kysely';
import type { Log } from '../core/context.ts';
import type { DB } from '../storage/schema.ts';
import { describeNotification } from './describe.ts';
import { shownSql } from './inbox.ts';

/** What sends one message: nodemailer's transport in the service, the same in tests (a real SMTP server). */
export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
  close?(): void;
}

export interface MailWorkerOptions {
  db: Kysely<DB>;
  transport: MailTransport;
  from: string;
  publicUrl: string;
  log: Log;
  now(): Date;
}

/** Attempts before a notification's email is given up (kept, marked failed, visible to its member). */
export const MAX_ATTEMPTS = 8;
const BATCH = 20;
/** A claim older than this was left by a node that stopped while sending: it is claimed again. */
const CLAIM_TIMEOUT_SECONDS = 600;

/** Seconds to wait before attempt `n + 1` after `n` failed: 30 s, 1 min, 2 min, … at most an hour. */
export const backoffSeconds = (attempts: number) => Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600);

/** What became of a claimed notification's email. */
type Outcome = { sent: true } | { withheld: true } | { sent: false; attempts: number; error: string };

interface Claimed {
  id: string;
  kind: string;
  entity_type: string;
  payload: Record<string, unknown>;
  email_attempts: number;
  to_email: string | null;
  to_name: string;
  /** The member may see the notification's record now (they may have lost access since it was written). */
  visible: boolean;
}

/**
 * Sends queued notification emails (ADR 0022). A batch is claimed in its own short transaction
 * (`for update skip locked`, then marked `sending`), so two nodes never claim the same row; each
 * message is then sent and its row marked `sent`, or retried later with backoff, or `failed`
 * after MAX_ATTEMPTS with the reason kept; one about a record its member may no longer see is not
 * sent at all. One message per notification: a crash between sending and marking can repeat it
 * once, after the claim times out — never two nodes at once.
 */
export class MailWorker {
  private readonly options: MailWorkerOptions;

  constructor(options: MailWorkerOptions) {
    this.options = options;
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.options.now().toISOString();
    const { rows } = await sql<Claimed>`
      update notifications n set email_state = 'sending', email_claimed_at = ${now}::timestamptz
      from members m
      where m.id = n.member_id and n.id in (
        select id from notifications
        where (email_state = 'queued' and (email_next_at is null or email_next_at <= ${now}::timestamptz))
           or (email_state = 'sending' and email_claimed_at < ${now}::timestamptz - make_interval(secs => ${CLAIM_TIMEOUT_SECONDS}))
        order by created_at
        limit ${BATCH}
        for update skip locked)
      returning n.id, n.kind, n.entity_type, n.payload, n.email_attempts, m.email as to_email,
        m.display_name as to_name, ${shownSql()} as visible
    `.execute(this.options.db);
    return rows;
  }

  private async settle(id: string, outcome: Outcome): Promise<void> {
    const now = this.options.now();
    if ('withheld' in outcome) {
      await sql`update notifications set email_state = 'none', email_next_at = null where id = ${id}`.execute(this.options.db);
      return;
    }
    if (outcome.sent) {
      await sql`update notifications set email_state = 'sent', delivered_at = ${now.toISOString()}::timestamptz, email_error = null where id = ${id}`.execute(
        this.options.db,
      );
      return;
    }
    const failed = outcome.attempts >= MAX_ATTEMPTS;
    const next = new Date(now.getTime() + backoffSeconds(outcome.attempts) * 1000).toISOString();
    await sql`
      update notifications set email_state = ${failed ? 'failed' : 'queued'}, email_attempts = ${outcome.attempts},
        email_next_at = ${failed ? null : next}::timestamptz, email_error = ${outcome.error}
      where id = ${id}`.execute(this.options.db);
  }

  /** Claims and sends one batch; the number of messages it handled (sent or not). */
  async runOnce(): Promise<number> {
    const batch = await this.claim();
    for (const row of batch) {
      // what its member may no longer see is not sent (nor shown on their page)
      if (!row.visible) {
        await this.settle(row.id, { withheld: true });
        continue;
      }
      if (!row.to_email) {
        await this.settle(row.id, { sent: false, attempts: MAX_ATTEMPTS, error: 'the member has no email address' });
        continue;
      }
      const text = describeNotification(row, this.options.publicUrl);
      const lines = [text.headline, text.detail, text.via ? `Through ${text.via}.` : null, text.link].filter(
        (l): l is string => l !== null,
      );
      try {
        await this.options.transport.sendMail({
          from: this.options.from,
          to: row.to_email,
          subject: `[Atrium] ${text.headline}`,
          text: `${lines.join('\n\n')}\n\nYou get this because you watch it or were mentioned; turn email off on your notifications page.\n`,
        });
        await this.settle(row.id, { sent: true });
      } catch (error) {
        // the reason is the SMTP server's, never the message (it may hold what a member wrote)
        const reason = error instanceof Error ? error.message.slice(0, 500) : 'sending failed';
        this.options.log.warn({ notification: row.id, attempts: row.email_attempts + 1 }, 'notification email not sent');
        await this.settle(row.id, { sent: false, attempts: row.email_attempts + 1, error: reason });
      }
    }
    return batch.length;
  }
}
