import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { durationSeconds } from '../../core/durations.ts';
import { invalid, notFound } from '../../core/errors.ts';
import { refuseBlank } from '../../core/names.ts';
import { recordHistory } from '../../core/history.ts';
import { checkZone, parseMoment } from '../../core/moments.ts';
import { loadVisibleTicket, ticketScope, visibleTicketSql } from '../tickets/index.ts';
import { contactVisibleSql } from './contacts-read.ts';
import { findContact, type ContactRow } from './contacts-repo.ts';
import { dealCompanyOf, isDealContact } from './deals-repo.ts';
import { findInteraction, interactionPage, type InteractionRow } from './interactions-repo.ts';
import { allows, companyVisibleSql, requireCrm, requireOpenCrm, type CrmAccess, type CrmTarget } from './policy.ts';
import { presentInteraction } from './present.ts';
import { interactionRuleSql } from './record-visibility.ts';
import { writeInteraction } from './records.ts';
import { isUuid } from './repo.ts';
import { resolveCompany, resolveFollowUpAssignee } from './resolve.ts';
import type { Interaction, InteractionList, ListInteractionsQuery, LogInteractionBody } from './schemas.ts';

/**
 * Interactions (spec 2.9, 4.7): notes, calls, meetings and tasks about a contact, a company or a
 * ticket. One is seen by whoever may see the CRM for its company (one with no company needs the
 * whole CRM) and, when it is about a ticket, may see the ticket. Logging needs Edit the CRM for
 * its company.
 */

/** SQL: interaction `i` (with its ticket joined as `tk`) is one the member may see. */
export async function interactionVisibleSql(ctx: Context, access: CrmAccess): Promise<RawBuilder<boolean>> {
  const scope = await ticketScope(ctx);
  return interactionRuleSql(companyVisibleSql(access, 'i.company_id'), visibleTicketSql(scope, 'tk'));
}

/** A contact the member may see, named by id in a request field; 404 for any other (spec 4.7). */
async function visibleContact(ctx: Context, access: CrmAccess, id: string): Promise<ContactRow> {
  refuseBlank(id, '/contact');
  const contact = isUuid(id) ? await findContact(ctx.db, id.trim(), contactVisibleSql(access)) : undefined;
  if (!contact) throw notFound(`Contact ${id.trim()}`);
  return contact;
}

/** A ticket named in a request field, one the member can see; 404 for any other, as in a path. */
function ticketNamed(ctx: Context, key: string) {
  refuseBlank(key, '/ticket');
  return loadVisibleTicket(ctx, key);
}

/** GET /interactions: exactly one of contact, company, ticket; latest first. */
export async function listInteractions(ctx: Context, input: ListInteractionsQuery): Promise<InteractionList> {
  const access = await requireOpenCrm(ctx);
  const given = (['contact', 'company', 'ticket'] as const).filter((field) => input[field] !== undefined);
  if (given.length !== 1) {
    throw invalid(
      given.length ? `/${given[1]}` : '/',
      `name exactly one of contact, company or ticket${given.length ? ` (not ${given.join(' and ')})` : ''}`,
    );
  }
  const limit = input.limit ?? 20;
  const offset = input.offset ?? 0;
  const conditions: RawBuilder<boolean>[] = [await interactionVisibleSql(ctx, access)];
  if (input.contact !== undefined) conditions.push(sql<boolean>`i.contact_id = ${(await visibleContact(ctx, access, input.contact)).id}`);
  if (input.company !== undefined)
    conditions.push(sql<boolean>`i.company_id = ${(await resolveCompany(ctx, access, input.company, '/company')).id}`);
  if (input.ticket !== undefined) {
    conditions.push(sql<boolean>`i.ticket_id = ${(await ticketNamed(ctx, input.ticket)).id}`);
  }
  if (input.kind !== undefined) conditions.push(sql<boolean>`i.kind = ${input.kind}`);
  const rows = await interactionPage(ctx.db, sql.join(conditions, sql` and `), limit, offset);
  return { interactions: rows.map((row) => presentInteraction(row, ctx.publicUrl)), limit, offset };
}

const companyOf = (contact: ContactRow): CrmTarget | null =>
  contact.company_id ? { id: contact.company_id, name: contact.company_name ?? '' } : null;

/** What the interaction is about, checked (spec 4.7): at least one of contact, company, ticket, and the contact one of theirs. */
interface Subject {
  contact: ContactRow | null;
  company: CrmTarget | null;
  ticket: { id: string; key: string } | null;
}

async function subjectOf(ctx: Context, access: CrmAccess, input: LogInteractionBody): Promise<Subject> {
  if (input.contact === undefined && input.company === undefined && input.ticket === undefined) {
    throw invalid('/', 'name at least one of contact, company or ticket');
  }
  const contact = input.contact === undefined ? null : await visibleContact(ctx, access, input.contact);
  const company = input.company === undefined ? null : await resolveCompany(ctx, access, input.company, '/company', { archived: false });
  const ticketState = input.ticket === undefined ? null : await ticketNamed(ctx, input.ticket);
  const ticket = ticketState ? { id: ticketState.id, key: ticketState.key } : null;
  const deal = ticketState?.project_kind === 'sales' ? { company: await dealCompanyOf(ctx.db, ticketState.id) } : null;
  if (company && deal?.company && deal.company.id !== company.id) {
    throw invalid('/company', `${ticket!.key} is a deal with ${deal.company.name}, not ${company.name}`);
  }
  // with a company or a deal, the contact is one of its company's contacts or one of the deal's people
  const named = company ?? deal?.company ?? null;
  if (contact && (company || deal)) {
    const ofCompany = named !== null && contact.company_id === named.id;
    const onDeal = deal !== null && (await isDealContact(ctx.db, ticket!.id, contact.id)) && allows(access, 'edit', contact.company_id);
    if (!ofCompany && !onDeal) {
      const choices = [...(named ? [`a contact of ${named.name}`] : []), ...(deal ? [`one of ${ticket!.key}'s people you may edit`] : [])];
      throw invalid('/contact', `${contact.name} is not ${choices.join(' or ')}`);
    }
  }
  // the company it is about: the one named, else the deal's, else the contact's (linked automatically)
  const about = named ?? (contact ? companyOf(contact) : null);
  return { contact, company: about, ticket };
}

const ONLY_TASKS = { due_at: 'a due moment', assignee: 'an assignee' } as const;

/** POST /interactions. */
export async function logInteraction(ctx: Context, input: LogInteractionBody): Promise<Interaction> {
  const access = await requireOpenCrm(ctx);
  const subject = input.subject.trim();
  if (subject === '') throw invalid('/subject', 'must not be blank');
  if (input.kind !== 'task') {
    for (const [field, what] of Object.entries(ONLY_TASKS)) {
      if (input[field as keyof typeof ONLY_TASKS] !== undefined)
        throw invalid(`/${field}`, `only a task (a follow-up) has ${what}; this is a ${input.kind}`);
    }
  }
  const zone = input.timezone === undefined ? null : await checkZone(ctx.db, input.timezone);
  const about = await subjectOf(ctx, access, input);
  await requireCrm(ctx, 'edit', about.company, 'log interactions');

  const now = ctx.now();
  const occurredAt =
    input.occurred_at === undefined ? now.toISOString() : await parseMoment(ctx.db, input.occurred_at, zone, '/occurred_at');
  const dueAt = input.due_at === undefined ? null : await parseMoment(ctx.db, input.due_at, zone, '/due_at');
  const duration = input.duration === undefined ? 0 : durationSeconds({ words: input.duration }, '/duration');
  const assignee = input.kind === 'task' ? await resolveFollowUpAssignee(ctx, input.assignee ?? 'me', about, '/assignee') : null;

  const id = await writeInteraction(
    ctx.db,
    {
      kind: input.kind,
      subject,
      body_format: 'markdown',
      body_text: input.body ?? '',
      occurred_at: occurredAt,
      duration_seconds: duration,
      author_id: ctx.actor.memberId,
      contact_id: about.contact?.id ?? null,
      company_id: about.company?.id ?? null,
      ticket_id: about.ticket?.id ?? null,
      due_at: dueAt,
      assignee_id: assignee?.id ?? null,
      done_at: null,
      email: false,
    },
    now,
  );
  await recordHistory(ctx, {
    entityType: 'interaction',
    entityId: id,
    kind: 'created',
    changes: [
      { field: 'kind', from: null, to: input.kind },
      { field: 'subject', from: null, to: subject },
      ...(assignee ? [{ field: 'assignee', from: null, to: assignee.name }] : []),
      ...(dueAt ? [{ field: 'due_at', from: null, to: dueAt }] : []),
    ],
  });
  const row = await findInteraction(ctx.db, id, sql<boolean>`true`);
  return presentInteraction(row!, ctx.publicUrl);
}

/** An interaction the member may see, by id; 404 for any other. */
export async function loadInteraction(ctx: Context, access: CrmAccess, id: string, forUpdate = false): Promise<InteractionRow> {
  const row = isUuid(id) ? await findInteraction(ctx.db, id.trim(), await interactionVisibleSql(ctx, access), forUpdate) : undefined;
  if (!row) throw notFound(`Interaction ${id.trim()}`);
  return row;
}
