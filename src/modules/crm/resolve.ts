import type { Context } from '../../core/context.ts';
import { ApiError, invalid, notFound } from '../../core/errors.ts';
import { candidateList, normalizeName, refuseBlank } from '../../core/names.ts';
import { resolvePerson } from '../../core/people.ts';
import type { Person } from '../../core/shapes.ts';
import { companyNamesLike, findCompany, type CompanyRow } from './companies-repo.ts';
import { companyVisibleSql, crmMembers, type CrmAccess } from './policy.ts';
import { followUpViewers } from './record-visibility.ts';
import { isUuid } from './repo.ts';

/**
 * Naming CRM records in requests. A company is named by its name or id among those the member
 * may see (a miss is 422 listing up to 25 names, spec 2.1; in a path it is 404). People put on a
 * record (owner, assignee) must be members who may see the CRM for its company.
 */

/** A company the member may see, for a field of a request: by id or name; 422 `invalid` on `pointer` when none. */
export async function resolveCompany(
  ctx: Context,
  access: CrmAccess,
  given: string,
  pointer: string,
  options: { archived: boolean } = { archived: true },
): Promise<CompanyRow> {
  refuseBlank(given, pointer);
  const visible = companyVisibleSql(access, 'c.id');
  const found = await findCompany(ctx.db, given, isUuid(given), visible);
  if (found && (options.archived || !found.archived)) return found;
  if (found) throw invalid(pointer, `${found.name} is archived; archived companies take no new contacts or deals`);
  const { names, total } = await companyNamesLike(ctx.db, given, visible);
  const more = total > names.length ? ` (and ${total - names.length} more)` : '';
  throw invalid(pointer, `no company "${given.trim()}"; companies are ${candidateList(given, names)}${more}`);
}

/** A company named in a path (GET and PATCH /companies/{id}): by id or name; 404 when the member may not see it. */
export async function loadCompany(ctx: Context, access: CrmAccess, given: string): Promise<CompanyRow> {
  const found = await findCompany(ctx.db, given, isUuid(given), companyVisibleSql(access, 'c.id'));
  if (!found) throw notFound(`Company ${given.trim()}`);
  return found;
}

const forCompany = (company: { name: string } | null) => (company ? ` for ${company.name}` : ' for records with no company');

/**
 * A member to put on a CRM record as its owner: `me`, a display name or an id, who may see the
 * CRM for the record's company — an owner who cannot open it helps no one.
 */
export async function resolveCrmMember(
  ctx: Context,
  given: string,
  company: { id: string; name: string } | null,
  pointer: string,
): Promise<Person> {
  if (normalizeName(given) === 'me') return { id: ctx.actor.memberId, name: ctx.actor.name };
  const person = await resolvePerson(ctx, given, pointer);
  const allowed = await crmMembers(ctx.db, company?.id ?? null);
  if (allowed.some((m) => m.id === person.id)) return person;
  throw invalid(
    pointer,
    `${person.name} may not see the CRM${forCompany(company)}; people who may are ${candidateList(
      given,
      allowed.map((m) => m.name),
    )}`,
  );
}

/** What a follow-up is about, as POST /interactions resolved it. */
export interface FollowUpAbout {
  company: { id: string; name: string } | null;
  ticket: { id: string; key: string } | null;
}

/**
 * A follow-up's assignee: `me`, a display name or an id, who may see the follow-up — the CRM for
 * its company and, about a ticket, the ticket — or its reminder would reach nobody and their
 * follow-ups would not list it; anyone else is 422 `not_assignable` (spec 7). The member logging
 * it may see it.
 */
export async function resolveFollowUpAssignee(ctx: Context, given: string, about: FollowUpAbout, pointer: string): Promise<Person> {
  if (normalizeName(given) === 'me') return { id: ctx.actor.memberId, name: ctx.actor.name };
  const person = await resolvePerson(ctx, given, pointer);
  const ids = { company: about.company?.id ?? null, ticket: about.ticket?.id ?? null };
  const viewers = await followUpViewers(ctx.db, ids);
  const viewer = viewers.find((m) => m.id === person.id);
  if (viewer?.seesFollowUp) return person;
  const why =
    !viewer?.seesCompany || !about.ticket ? `the CRM${forCompany(about.company)}` : `${about.ticket.key}, which this follow-up is about`;
  const who = candidateList(
    given,
    viewers.filter((m) => m.seesFollowUp).map((m) => m.name),
  );
  const message = `${person.name} may not see ${why}; people who may see this follow-up are ${who}`;
  throw new ApiError('not_assignable', `${pointer}: ${message}`);
}
