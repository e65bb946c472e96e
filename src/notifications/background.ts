import nodemailer from 'nodemailer';
import type { Log } from '../core/context.ts';
import type { Config } from '../config/config.ts';
import type { Database } from '../storage/database.ts';
import { MailWorker, type MailTransport } from './mail-worker.ts';
import { fireDueReminders } from './reminders.ts';

export interface BackgroundOptions {
  database: Database;
  mail: Config['mail'];
  publicUrl: string;
  log: Log;
  now(): Date;
  /** Seconds between looks for due reminders and queued mail (tests make them short). */
  reminderSeconds?: number;
  mailSeconds?: number;
  /** The transport to send with; left out, nodemailer's for SMTP_URL. */
  transport?: MailTransport;
}

export interface Background {
  /** One round of everything due now: reminders fired, queued mail sent. */
  runOnce(): Promise<{ reminders: number; mails: number }>;
  stop(): Promise<void>;
}

/**
 * The node's background work (ADR 0022): fire due reminders, send queued notification email.
 * Every node runs it; claims with `skip locked` make each reminder fire once and each email go out
 * once across them. A failing round (the database away) is logged and retried at the next.
 */
export function startBackground(options: BackgroundOptions): Background {
  const mail = options.mail;
  const transport = options.transport ?? (mail ? (nodemailer.createTransport(mail.smtpUrl) as MailTransport) : null);
  const worker =
    mail && transport
      ? new MailWorker({
          db: options.database.db,
          transport,
          from: mail.from,
          publicUrl: options.publicUrl,
          log: options.log,
          now: options.now,
        })
      : null;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<unknown>>();

  const runOnce = async () => {
    const reminders = await fireDueReminders(options.database.db, options.now(), mail !== null);
    let mails = 0;
    if (worker) {
      for (let sent = await worker.runOnce(); sent > 0; sent = await worker.runOnce()) mails += sent;
    }
    return { reminders, mails };
  };

  const every = (seconds: number, work: () => Promise<unknown>) => {
    const tick = () => {
      if (stopped) return;
      const round = work()
        .catch((error: unknown) => options.log.warn({ err: error }, 'background work failed; trying again later'))
        .finally(() => {
          inFlight.delete(round);
          if (stopped) return;
          const timer = setTimeout(() => {
            timers.delete(timer);
            tick();
          }, seconds * 1000);
          timer.unref();
          timers.add(timer);
        });
      inFlight.add(round);
    };
    tick();
  };
  every(options.reminderSeconds ?? 15, () => fireDueReminders(options.database.db, options.now(), mail !== null));
  if (worker)
    every(options.mailSeconds ?? 2, async () => {
      while ((await worker.runOnce()) > 0);
    });

  return {
    runOnce,
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(inFlight);
      transport?.close?.();
    },
  };
}
