import type { RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import { invalid } from '../../core/errors.ts';
import type { HistoryChange } from '../../storage/schema.ts';
import type { DealCompanyChoice, HookProject, TicketForm } from './hooks.ts';
import type { Ticket } from './schemas.ts';

/**
 * Where tickets meet the modules built on them (hooks.ts): each function asks the module that
 * filled the extension point, or says plainly that no module did.
 */

/** `request_type` of a new ticket, answered by the helpdesk. */
export function requestTypeFor(ctx: Context, project: HookProject, given: string): Promise<TicketForm> {
  const forms = ctx.hooks.ticketRequestType;
  if (!forms) throw invalid('/request_type', 'request types need the helpdesk module, which this service does not have');
  return forms.forNewTicket(ctx, project, given);
}

/** `company` of a create or PATCH, answered by the CRM before anything is written. */
export function resolveDealCompany(ctx: Context, project: HookProject, given: string | null): Promise<DealCompanyChoice> {
  const deals = ctx.hooks.ticketDeal;
  if (!deals) throw invalid('/company', 'a deal’s company needs the CRM module, which this service does not have');
  return deals.resolveCompany(ctx, project, given);
}

export async function writeDealCompany(ctx: Context, ticketId: string, choice: DealCompanyChoice): Promise<HistoryChange[]> {
  return ctx.hooks.ticketDeal?.writeCompany(ctx, ticketId, choice) ?? [];
}

/** writeDealCompany for a ticket being created, as a write of the statement that creates it. */
export function newDealCompany(
  ctx: Context,
  ticketId: string,
  choice: DealCompanyChoice,
): { write: RawBuilder<unknown> | null; changes: HistoryChange[] } {
  return ctx.hooks.ticketDeal?.newCompany(ticketId, choice) ?? { write: null, changes: [] };
}

/** Tickets as presented, with the Deal on those of sales projects (spec 2.4), where the CRM gives one. */
export async function withDeals<T extends Ticket>(
  ctx: Context,
  tickets: readonly { id: string; projectKind: string; ticket: T }[],
): Promise<T[]> {
  const sales = tickets.filter((t) => t.projectKind === 'sales');
  const deals = ctx.hooks.ticketDeal;
  if (!deals || sales.length === 0) return tickets.map((t) => t.ticket);
  const found = await deals.present(
    ctx,
    sales.map((t) => ({ id: t.id, fields: t.ticket.fields ?? {} })),
  );
  return tickets.map((t) => {
    const deal = found.get(t.id);
    return deal ? { ...t.ticket, deal } : t.ticket;
  });
}
