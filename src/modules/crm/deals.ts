import type { RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { ApiError, invalid } from '../../core/errors.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import type { Deal, DealCompanyChoice, HookProject, TicketDealHook } from '../tickets/index.ts';
import { dealCompanyInsert, dealCompanyOf, dealRows, setDealCompany } from './deals-repo.ts';
import { allows, crmAccess, isOpen, requireCrm, requireOpenCrm } from './policy.ts';
import { resolveCompany } from './resolve.ts';

/**
 * The CRM side of deals (spec 1, 2.4, 4.7): a deal is a ticket of a sales project. Its value,
 * currency, expected close, probability and lost reason are the ticket's custom fields; its
 * company (set by `company` on POST and PATCH /tickets) and its people live in the CRM. The
 * tickets module asks through its `ticketDeal` extension point (tickets/hooks.ts).
 */

const switchedOff = () =>
  new ApiError('feature_disabled', 'The CRM module is switched off in this workspace, so a deal’s company cannot be set');

/** `company` of POST or PATCH /tickets: a company the member may see and edit for, checked before anything is written. */
async function resolveDealCompany(ctx: Context, project: HookProject, given: string | null): Promise<DealCompanyChoice> {
  if (!ctx.settings.modules.crm) throw switchedOff();
  if (project.kind !== 'sales')
    throw invalid('/company', `only deals have a company, and project ${project.key} is a ${project.kind} project, not a sales one`);
  const access = await requireOpenCrm(ctx);
  if (given === null) return null;
  const company = await resolveCompany(ctx, access, given, '/company', { archived: false });
  await requireCrm(ctx, 'edit', company, 'put deals on companies');
  return { id: company.id, name: company.name };
}

/** Writes the deal's company; taking a deal off a company needs Edit the CRM for that company too. */
async function writeDealCompany(ctx: Context, ticketId: string, choice: DealCompanyChoice): Promise<HistoryChange[]> {
  const current = await dealCompanyOf(ctx.db, ticketId);
  if ((current?.id ?? null) === (choice?.id ?? null)) return [];
  if (current) await requireCrm(ctx, 'edit', current, 'take deals off companies');
  await setDealCompany(ctx.db, ticketId, choice?.id ?? null);
  return [{ field: 'company', from: current?.name ?? null, to: choice?.name ?? null }];
}

/** writeDealCompany for a ticket being created: its deal row, written by the statement that creates the ticket. */
function newDealCompany(ticketId: string, choice: DealCompanyChoice): { write: RawBuilder<unknown> | null; changes: HistoryChange[] } {
  if (choice === null) return { write: null, changes: [] };
  return { write: dealCompanyInsert(ticketId, choice.id), changes: [{ field: 'company', from: null, to: choice.name }] };
}

/**
 * The Deal of each sales ticket, for a member who may see the CRM for the deal's company (a deal
 * with no company: for the whole CRM). Its people are those the member may see.
 */
async function presentDeals(
  ctx: Context,
  tickets: readonly { id: string; fields: Record<string, string> }[],
): Promise<ReadonlyMap<string, Deal>> {
  const deals = new Map<string, Deal>();
  if (!ctx.settings.modules.crm) return deals;
  const access = await crmAccess(ctx);
  if (!isOpen(access)) return deals;
  const rows = new Map(
    (
      await dealRows(
        ctx.db,
        tickets.map((t) => t.id),
      )
    ).map((row) => [row.ticket_id, row]),
  );
  for (const ticket of tickets) {
    const row = rows.get(ticket.id);
    const companyId = row?.company_id ?? null;
    if (!allows(access, 'see', companyId)) continue;
    const fields = ticket.fields;
    deals.set(ticket.id, {
      company: companyId && row?.company_name ? { id: companyId, name: row.company_name } : null,
      value: fields.deal_value ?? null,
      currency: fields.deal_currency ?? null,
      expected_close: fields.expected_close ?? null,
      probability: fields.probability ?? null,
      lost_reason: fields.lost_reason ?? null,
      contacts: (row?.contacts ?? [])
        .filter((c) => allows(access, 'see', c.company_id))
        .map((c) => ({ id: c.id, name: c.name, role: c.role })),
    });
  }
  return deals;
}

/** The CRM's answer to the tickets module's questions about deals (tickets/hooks.ts). */
export const ticketDealHook: TicketDealHook = {
  resolveCompany: resolveDealCompany,
  writeCompany: writeDealCompany,
  newCompany: newDealCompany,
  present: presentDeals,
};
