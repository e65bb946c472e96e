import type { Kysely } from 'kysely';
import { scheduleReminder } from '../../core/notifications.ts';
import type { DB } from '../../storage/schema.ts';
import { insertContact, insertEmail, insertPhone, refreshContactSearch, type NewContact } from './contacts-repo.ts';
import { insertInteractionRow, type NewInteraction } from './interactions-repo.ts';
import { crmPath } from './present.ts';
import type { EmailLabel, PhoneLabel } from './tables.ts';

/**
 * How new contacts and interactions are written, by the API and by the workspace file alike, so
 * the two cannot drift: primary flags, the search document, a follow-up's reminder.
 */

export interface NewEmail {
  address: string;
  label: EmailLabel;
  primary: boolean;
}

export interface NewPhone {
  number: string;
  label: PhoneLabel;
  primary: boolean;
}

/** Index of the primary entry: the first marked primary, else the first (a contact with addresses always has a primary one). */
const primaryIndex = (entries: readonly { primary: boolean }[]) =>
  Math.max(
    0,
    entries.findIndex((e) => e.primary),
  );

/** A new contact with its addresses and numbers, in the caller's transaction; addresses must already be checked free. */
export async function writeNewContact(
  db: Kysely<DB>,
  values: NewContact,
  emails: readonly NewEmail[],
  phones: readonly NewPhone[],
  now: Date,
): Promise<string> {
  const id = await insertContact(db, values, now);
  // a millisecond apart, so the order they were given is the order they are listed in
  const at = (i: number) => new Date(now.getTime() + i);
  const firstEmail = primaryIndex(emails);
  for (const [i, email] of emails.entries()) await insertEmail(db, id, { ...email, primary: i === firstEmail }, at(i));
  const firstPhone = primaryIndex(phones);
  for (const [i, phone] of phones.entries()) await insertPhone(db, id, { ...phone, primary: i === firstPhone }, at(i));
  await refreshContactSearch(db, id);
  return id;
}

/** A new interaction; an open follow-up with an assignee and a due moment gets its reminder (spec 6) in the same transaction. */
export async function writeInteraction(db: Kysely<DB>, values: NewInteraction, now: Date): Promise<string> {
  const id = await insertInteractionRow(db, values, now);
  if (values.kind === 'task' && values.assignee_id !== null && values.due_at !== null && values.done_at === null) {
    await scheduleReminder(db, {
      memberId: values.assignee_id,
      entityType: 'interaction',
      entityId: id,
      kind: 'follow_up',
      payload: { subject: values.subject, path: crmPath('interactions', id) },
      dueAt: values.due_at,
    });
  }
  return id;
}
