import type { Context } from '../../core/context.ts';
import { invalid, notFound } from '../../core/errors.ts';
import { recordHistory } from '../../core/history.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import { loadContactDetail, contactVisibleSql } from './contacts-read.ts';
import {
  addressHolder,
  contactChannelCounts,
  findContact,
  insertEmail,
  insertPhone,
  refreshContactSearch,
  touchContact,
  updateContactRow,
  type ContactChange,
  type ContactRow,
} from './contacts-repo.ts';
import { crmAccess, requireCrm, requireOpenCrm, type CrmAccess } from './policy.ts';
import { writeNewContact } from './records.ts';
import { isUuid, lockAddress } from './repo.ts';
import { resolveCompany, resolveCrmMember } from './resolve.ts';
import type { AddEmailBody, AddPhoneBody, ContactDetail, CreateContactBody, UpdateContactBody } from './schemas.ts';

/**
 * Creating and changing contacts (spec 4.7): Edit the CRM for the company concerned (a contact
 * with no company needs it for the whole CRM); an email address belongs to one contact in the
 * workspace; `email` and `phone` on create become primary. Every change is one history entry of
 * the contact. Nothing about a contact is written to the log: its data travels in the request's
 * transaction and its answer only.
 */

const history = (ctx: Context, contactId: string, kind: string, changes: HistoryChange[]) =>
  recordHistory(ctx, { entityType: 'contact', entityId: contactId, kind, changes });

/** A name with its surrounding spaces trimmed; one of spaces alone is no name. */
function trimmedName(name: string, pointer: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalid(pointer, 'must not be blank');
  return trimmed;
}

/** Refuses an address another contact (or this one) has, case-insensitively; the lock holds it until the transaction ends. */
async function claimAddress(ctx: Context, address: string, pointer: string): Promise<void> {
  await lockAddress(ctx.db, address);
  if (await addressHolder(ctx.db, address)) {
    throw invalid(pointer, 'this email address already belongs to a contact; an address belongs to one contact in the workspace');
  }
}

/**
 * The unique index on addresses is the last guard behind the lock: should it ever refuse, the
 * answer is the same 422 (never a 500, whose log line would carry the driver's words about the row).
 */
async function guardAddress<T>(pointer: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
    if (code === '23505' && constraint === 'contact_emails_address_key') {
      throw invalid(pointer, 'this email address already belongs to a contact; an address belongs to one contact in the workspace');
    }
    throw error;
  }
}

/** POST /contacts. */
export async function createContact(ctx: Context, input: CreateContactBody): Promise<ContactDetail> {
  const access = await requireOpenCrm(ctx);
  const name = trimmedName(input.name, '/name');
  const company = input.company == null ? null : await resolveCompany(ctx, access, input.company, '/company', { archived: false });
  await requireCrm(ctx, 'edit', company, 'create contacts');
  // left out: the member creating it owns it; null: nobody does
  const owner =
    input.owner === undefined
      ? { id: ctx.actor.memberId, name: ctx.actor.name }
      : input.owner === null
        ? null
        : await resolveCrmMember(ctx, input.owner, company, '/owner');
  if (input.email !== undefined) await claimAddress(ctx, input.email, '/email');

  const now = ctx.now();
  const id = await guardAddress('/email', () =>
    writeNewContact(
      ctx.db,
      {
        name,
        job_title: input.job_title?.trim() || null,
        stage: input.stage ?? 'lead',
        company_id: company?.id ?? null,
        owner_id: owner?.id ?? null,
        notes_format: input.notes == null ? null : 'markdown',
        notes_text: input.notes ?? null,
        source: 'api',
      },
      input.email === undefined ? [] : [{ address: input.email.trim(), label: 'work', primary: true }],
      input.phone === undefined ? [] : [{ number: input.phone, label: 'work', primary: true }],
      now,
    ),
  );
  const set = (field: string, value: unknown): HistoryChange[] =>
    value === null || value === undefined ? [] : [{ field, from: null, to: value }];
  await history(ctx, id, 'created', [
    ...set('name', name),
    ...set('job_title', input.job_title?.trim() || null),
    ...set('stage', input.stage ?? 'lead'),
    ...set('company', company?.name),
    ...set('owner', owner?.name),
    ...set('notes', input.notes),
    ...set('email', input.email?.trim()),
    ...set('phone', input.phone),
  ]);
  return loadContactDetail(ctx, id);
}

/** A contact the member may see, locked for a change they may make: 404 if they cannot see it, 403 if they may not change it. */
async function contactToChange(ctx: Context, access: CrmAccess, id: string): Promise<ContactRow> {
  const contact = isUuid(id) ? await findContact(ctx.db, id.trim(), contactVisibleSql(access), true) : undefined;
  if (!contact) throw notFound(`Contact ${id.trim()}`);
  await requireCrm(
    ctx,
    'edit',
    contact.company_id ? { id: contact.company_id, name: contact.company_name ?? '' } : null,
    'change contacts',
  );
  return contact;
}

/** PATCH /contacts/{id}: only what is sent changes; `company` or `owner` null clears it. */
export async function updateContact(ctx: Context, id: string, input: UpdateContactBody): Promise<ContactDetail> {
  const access = await crmAccess(ctx);
  const contact = await contactToChange(ctx, access, id);
  const before = await loadContactDetail(ctx, contact.id);
  const set: ContactChange = {};
  const changes: HistoryChange[] = [];
  /** Records a change of `field` (its history name) from `from` to `to`, writing `column` with `value`. */
  const change = <K extends keyof ContactChange>(field: string, from: unknown, to: unknown, column: K, value: ContactChange[K]) => {
    set[column] = value;
    changes.push({ field, from, to });
  };

  if (input.name !== undefined) {
    const name = trimmedName(input.name, '/name');
    if (name !== contact.name) change('name', contact.name, name, 'name', name);
  }
  if (input.job_title !== undefined) {
    const title = input.job_title?.trim() || null;
    if (title !== contact.job_title) change('job_title', contact.job_title, title, 'job_title', title);
  }
  if (input.stage !== undefined && input.stage !== contact.stage) change('stage', contact.stage, input.stage, 'stage', input.stage);
  let company = contact.company_id ? { id: contact.company_id, name: contact.company_name ?? '' } : null;
  if (input.company !== undefined) {
    const next = input.company === null ? null : await resolveCompany(ctx, access, input.company, '/company', { archived: false });
    if ((next?.id ?? null) !== contact.company_id) {
      await requireCrm(ctx, 'edit', next, 'move contacts');
      change('company', contact.company_name, next?.name ?? null, 'company_id', next?.id ?? null);
      company = next;
    }
  }
  if (input.owner !== undefined) {
    const owner = input.owner === null ? null : await resolveCrmMember(ctx, input.owner, company, '/owner');
    if ((owner?.id ?? null) !== contact.owner_id) change('owner', contact.owner_name, owner?.name ?? null, 'owner_id', owner?.id ?? null);
  }
  if (input.notes !== undefined && input.notes !== (before.notes?.text ?? null)) {
    set.notes_format = input.notes === null ? null : 'markdown';
    change('notes', before.notes?.text ?? null, input.notes, 'notes_text', input.notes);
  }
  if (changes.length === 0) return before;

  await updateContactRow(ctx.db, contact.id, set, ctx.now());
  if (set.name !== undefined || set.job_title !== undefined) await refreshContactSearch(ctx.db, contact.id);
  await history(ctx, contact.id, 'updated', changes);
  return loadContactDetail(ctx, contact.id);
}

/** POST /contacts/{id}/emails: an address nobody has; `primary` (or being the contact's first) makes it the primary one. */
export async function addContactEmail(ctx: Context, id: string, input: AddEmailBody): Promise<ContactDetail> {
  const contact = await contactToChange(ctx, await crmAccess(ctx), id);
  const address = input.address.trim();
  await claimAddress(ctx, address, '/address');
  const primary = input.primary === true || (await contactChannelCounts(ctx.db, contact.id)).emails === 0;
  const now = ctx.now();
  await guardAddress('/address', () => insertEmail(ctx.db, contact.id, { address, label: input.label ?? 'work', primary }, now));
  await refreshContactSearch(ctx.db, contact.id);
  await touchContact(ctx.db, contact.id, now);
  await history(ctx, contact.id, 'updated', [
    { field: 'emails', from: null, to: address },
    ...(primary && contact.email !== address ? [{ field: 'email', from: contact.email, to: address }] : []),
  ]);
  return loadContactDetail(ctx, contact.id);
}

/** POST /contacts/{id}/phones: a number kept as written; `primary` (or being the contact's first) makes it the primary one. */
export async function addContactPhone(ctx: Context, id: string, input: AddPhoneBody): Promise<ContactDetail> {
  const contact = await contactToChange(ctx, await crmAccess(ctx), id);
  const primary = input.primary === true || (await contactChannelCounts(ctx.db, contact.id)).phones === 0;
  const now = ctx.now();
  await insertPhone(ctx.db, contact.id, { number: input.number, label: input.label ?? 'work', primary }, now);
  await touchContact(ctx.db, contact.id, now);
  await history(ctx, contact.id, 'updated', [
    { field: 'phones', from: null, to: input.number },
    ...(primary ? [{ field: 'phone', from: null, to: input.number }] : []),
  ]);
  return loadContactDetail(ctx, contact.id);
}
