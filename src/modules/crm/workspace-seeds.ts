import { sql } from 'kysely';
import { parseDuration } from '../../core/durations.ts';
import { ApiError } from '../../core/errors.ts';
import { writeHistory } from '../../core/history.ts';
import { candidateList, normalizeKey, normalizeName } from '../../core/names.ts';
import { requireName } from '../../workspace/check-names.ts';
import type { ApplyContext, CheckContext } from '../../workspace/context.ts';
import { fail, filePath } from '../../workspace/path.ts';
import { addressHolder } from './contacts-repo.ts';
import { setDealCompany, setDealContacts } from './deals-repo.ts';
import { parseMoment } from '../../core/moments.ts';
import { writeInteraction, writeNewContact, type NewEmail, type NewPhone } from './records.ts';
import type { ContactEntry, CrmSectionEntry, DealEntry, InteractionEntry } from './workspace-schema.ts';

/**
 * The CRM's seed records: contacts, deals' companies and people, interactions. Records are data:
 * each is created once and later applies leave it (and what the API did to it since) alone —
 * except a deal's people, which only the file (standing in for the browser) changes.
 */

const at = (...parts: (string | number)[]) => filePath('crm', ...parts);

/** An API rule (a 422 message `/field: reason`) as a mistake at that field of the entry at `path`. */
async function atPath<T>(path: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const [, field = '', reason = error.message] = /^\/(\w*): (.*)$/s.exec(error.message) ?? [];
    return fail(field ? `${path}.${field}` : path, reason);
  }
}

const emailsOf = (entry: ContactEntry): NewEmail[] => [
  ...(entry.email ? [{ address: entry.email.trim(), label: 'work' as const, primary: true }] : []),
  ...(entry.emails ?? []).map((e) => ({ address: e.address.trim(), label: e.label ?? 'work', primary: e.primary ?? false })),
];

const phonesOf = (entry: ContactEntry): NewPhone[] => [
  ...(entry.phone ? [{ number: entry.phone, label: 'work' as const, primary: true }] : []),
  ...(entry.phones ?? []).map((p) => ({ number: p.number, label: p.label ?? 'work', primary: p.primary ?? false })),
];

export function checkSeeds(ctx: CheckContext, crm: CrmSectionEntry, companies: readonly string[]): void {
  const addresses = new Map<string, string>();
  (crm.contacts ?? []).forEach((entry, c) => {
    if (entry.company) requireName(companies, entry.company, at('contacts', c, 'company'), 'company');
    if (entry.owner) ctx.people.find(entry.owner, at('contacts', c, 'owner'));
    for (const email of emailsOf(entry)) {
      const key = email.address.toLowerCase();
      const earlier = addresses.get(key);
      if (earlier) fail(at('contacts', c), `the address ${email.address} is also ${earlier}'s; an address belongs to one contact`);
      addresses.set(key, at('contacts', c));
    }
  });
  const tickets = new Map<string, number>();
  (crm.deals ?? []).forEach((entry, d) => {
    const key = normalizeKey(entry.ticket);
    if (tickets.has(key)) fail(at('deals', d, 'ticket'), `deal ${key} is declared twice (also ${at('deals', tickets.get(key)!)})`);
    tickets.set(key, d);
    if (entry.company) requireName(companies, entry.company, at('deals', d, 'company'), 'company');
  });
  (crm.interactions ?? []).forEach((entry, i) => {
    if (entry.company) requireName(companies, entry.company, at('interactions', i, 'company'), 'company');
    if (entry.assignee) ctx.people.find(entry.assignee, at('interactions', i, 'assignee'));
    if (entry.author) ctx.people.find(entry.author, at('interactions', i, 'author'));
    if (entry.kind !== 'task') {
      for (const field of ['due_at', 'assignee', 'done_at'] as const) {
        if (entry[field] !== undefined)
          fail(
            at('interactions', i, field),
            `only a task (a follow-up) has ${field === 'done_at' ? 'a done moment' : field === 'due_at' ? 'a due moment' : 'an assignee'}`,
          );
      }
    }
    if (!entry.contact && !entry.company && !entry.ticket) fail(at('interactions', i), 'name at least one of contact, company, ticket');
  });
}

async function companyIds(ctx: ApplyContext): Promise<(name: string, path: string) => string> {
  const companies = await ctx.db.selectFrom('companies').select(['id', 'name']).execute();
  return (name, path) =>
    companies.find((c) => normalizeName(c.name) === normalizeName(name))?.id ??
    fail(
      path,
      `no company "${name.trim()}"; companies are ${candidateList(
        name,
        companies.map((c) => c.name),
      )}`,
    );
}

/** A contact the file names: by one of its addresses, else by its name (which must then name one contact). */
async function contactNamed(ctx: ApplyContext, ref: string, path: string): Promise<{ id: string; company_id: string | null }> {
  const held = await addressHolder(ctx.db, ref);
  const { rows } = held
    ? await sql<{ id: string; company_id: string | null }>`select id, company_id from contacts where id = ${held}`.execute(ctx.db)
    : await sql<{
        id: string;
        company_id: string | null;
      }>`select id, company_id from contacts where lower(name) = ${normalizeName(ref)} limit 2`.execute(ctx.db);
  if (rows.length === 1) return rows[0]!;
  return fail(
    path,
    rows.length > 1
      ? `"${ref.trim()}" names more than one contact; name it by an email address`
      : `no contact with the address or name "${ref.trim()}"`,
  );
}

async function applyContacts(ctx: ApplyContext, entries: readonly ContactEntry[]): Promise<void> {
  const companyId = await companyIds(ctx);
  const now = new Date();
  for (const [c, entry] of entries.entries()) {
    const emails = emailsOf(entry);
    const company = entry.company ? companyId(entry.company, at('contacts', c, 'company')) : null;
    const held = await Promise.all(emails.map((e) => addressHolder(ctx.db, e.address)));
    if (held.some((id) => id !== undefined)) continue;
    if (emails.length === 0) {
      const same = await sql<{ one: number }>`
        select 1 as one from contacts where lower(name) = ${normalizeName(entry.name)} and company_id is not distinct from ${company}::uuid limit 1`.execute(
        ctx.db,
      );
      if (same.rows.length) continue;
    }
    const id = await writeNewContact(
      ctx.db,
      {
        name: entry.name.trim(),
        job_title: entry.job_title ?? null,
        stage: entry.stage ?? 'lead',
        company_id: company,
        owner_id: entry.owner ? ctx.people.id(entry.owner, at('contacts', c, 'owner')) : null,
        notes_format: entry.notes == null ? null : 'markdown',
        notes_text: entry.notes ?? null,
        source: entry.source ?? 'workspace file',
        archived: entry.archived ?? false,
        postal_addresses: entry.postal_addresses ?? [],
        fields: entry.fields ?? {},
        consent: entry.consent ?? [],
      },
      emails,
      phonesOf(entry),
      new Date(now.getTime() + c * 10),
    );
    await writeHistory(
      ctx.db,
      { actorId: null, via: 'workspace file' },
      { entityType: 'contact', entityId: id, kind: 'created', changes: [] },
    );
    ctx.writer.log.note('contacts', 'created');
  }
}

async function dealTicket(ctx: ApplyContext, entry: DealEntry, d: number): Promise<string> {
  const key = normalizeKey(entry.ticket);
  const { rows } = await sql<{ id: string; kind: string }>`
    select t.id, p.kind from tickets t join projects p on p.id = t.project_id where t.key = ${key}`.execute(ctx.db);
  const ticket = rows[0];
  if (!ticket) return fail(at('deals', d, 'ticket'), `no ticket ${key}`);
  if (ticket.kind !== 'sales')
    fail(at('deals', d, 'ticket'), `${key} is not a deal: its project is a ${ticket.kind} project, not a sales one`);
  return ticket.id;
}

async function applyDeals(ctx: ApplyContext, entries: readonly DealEntry[]): Promise<void> {
  const companyId = await companyIds(ctx);
  for (const [d, entry] of entries.entries()) {
    const ticketId = await dealTicket(ctx, entry, d);
    const stored = await ctx.db.selectFrom('deals').select('company_id').where('ticket_id', '=', ticketId).executeTakeFirst();
    if (!stored && entry.company !== undefined) {
      await setDealCompany(ctx.db, ticketId, entry.company === null ? null : companyId(entry.company, at('deals', d, 'company')));
      ctx.writer.log.note('deals', 'created');
    }
    if (entry.contacts === undefined) continue;
    const people: { contactId: string; role: string | null }[] = [];
    for (const [p, person] of entry.contacts.entries()) {
      const contact = await contactNamed(ctx, person.contact, at('deals', d, 'contacts', p, 'contact'));
      if (people.some((x) => x.contactId === contact.id)) fail(at('deals', d, 'contacts', p), 'this contact is already on the deal');
      people.push({ contactId: contact.id, role: person.role ?? null });
    }
    const current = await ctx.db
      .selectFrom('deal_contacts')
      .select(['contact_id', 'role'])
      .where('ticket_id', '=', ticketId)
      .orderBy('position')
      .execute();
    const same =
      current.length === people.length &&
      current.every((row, i) => row.contact_id === people[i]!.contactId && row.role === people[i]!.role);
    if (!same) {
      await setDealContacts(ctx.db, ticketId, people);
      ctx.writer.log.note('deal_contacts', 'updated');
    }
  }
}

async function ticketId(ctx: ApplyContext, key: string, path: string): Promise<{ id: string; company_id: string | null }> {
  const { rows } = await sql<{ id: string; company_id: string | null }>`
    select t.id, d.company_id from tickets t left join deals d on d.ticket_id = t.id where t.key = ${normalizeKey(key)}`.execute(ctx.db);
  return rows[0] ?? fail(path, `no ticket ${normalizeKey(key)}`);
}

async function applyInteractions(ctx: ApplyContext, entries: readonly InteractionEntry[]): Promise<void> {
  const companyId = await companyIds(ctx);
  const now = new Date();
  for (const [i, entry] of entries.entries()) {
    const path = (field: string) => at('interactions', i, field);
    const contact = entry.contact ? await contactNamed(ctx, entry.contact, path('contact')) : null;
    const ticket = entry.ticket ? await ticketId(ctx, entry.ticket, path('ticket')) : null;
    const company = entry.company ? companyId(entry.company, path('company')) : (contact?.company_id ?? ticket?.company_id ?? null);
    const seen = await sql<{ one: number }>`
      select 1 as one from interactions
      where subject = ${entry.subject} and contact_id is not distinct from ${contact?.id ?? null}::uuid
        and company_id is not distinct from ${company}::uuid and ticket_id is not distinct from ${ticket?.id ?? null}::uuid
      limit 1`.execute(ctx.db);
    if (seen.rows.length) continue;

    const moment = async (field: 'occurred_at' | 'due_at', given: string | undefined) =>
      given === undefined ? null : atPath(at('interactions', i), () => parseMoment(ctx.db, given, entry.timezone, `/${field}`));
    const duration = entry.duration === undefined ? 0 : parseDuration(entry.duration);
    if (duration === null) fail(path('duration'), `"${entry.duration}" is not a duration (like 30m or 1h 15m)`);
    const author = entry.author ? ctx.people.id(entry.author, path('author')) : null;
    await writeInteraction(
      ctx.db,
      {
        kind: entry.kind,
        subject: entry.subject.trim(),
        body_format: 'markdown',
        body_text: entry.body ?? '',
        occurred_at: (await moment('occurred_at', entry.occurred_at)) ?? now.toISOString(),
        duration_seconds: duration,
        author_id: author,
        contact_id: contact?.id ?? null,
        company_id: company,
        ticket_id: ticket?.id ?? null,
        due_at: await moment('due_at', entry.due_at),
        assignee_id: entry.kind !== 'task' ? null : entry.assignee ? ctx.people.id(entry.assignee, path('assignee')) : author,
        done_at: entry.done_at ? new Date(entry.done_at).toISOString() : null,
        email: entry.kind === 'email',
      },
      now,
    );
    ctx.writer.log.note('interactions', 'created');
  }
}

export async function applySeeds(ctx: ApplyContext, crm: CrmSectionEntry): Promise<void> {
  if (crm.contacts) await applyContacts(ctx, crm.contacts);
  if (crm.deals) await applyDeals(ctx, crm.deals);
  if (crm.interactions) await applyInteractions(ctx, crm.interactions);
}
