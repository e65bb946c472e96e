import type { Kysely, RawBuilder } from 'kysely';
import type { Context } from '../../core/context.ts';
import type { DB, HistoryChange } from '../../storage/schema.ts';
import type { Deal } from './schemas.ts';

/**
 * What the tickets module asks of modules built on it, without importing them (core/hooks.ts):
 * the helpdesk answers which request type a new ticket is raised through; the CRM answers a
 * deal's company and presents the Deal of a sales ticket (spec 2.4).
 */

/** A project as the hooks see it. */
export interface HookProject {
  id: string;
  key: string;
  kind: string;
}

/** The request type (helpdesk form) a new ticket is raised through. */
export interface TicketForm {
  id: string;
  name: string;
  /** The type a ticket raised through the form gets when `type` is left out; null: the project's first. */
  ticketTypeId: string | null;
}

export interface TicketRequestTypeHook {
  /** `request_type` of POST /tickets: an active form of the project by key or name; refuses (422, or 403 while switched off) as the helpdesk decides. */
  forNewTicket(ctx: Context, project: HookProject, given: string): Promise<TicketForm>;
  /** The same for a seed ticket of the workspace file, inside the apply's transaction. */
  forSeed(db: Kysely<DB>, project: HookProject, given: string): Promise<TicketForm>;
}

/** A deal's company as resolved before anything is written; `null` clears it. */
export type DealCompanyChoice = { id: string; name: string } | null;

export interface TicketDealHook {
  /**
   * `company` of POST /tickets or PATCH /tickets/{key} (spec 4.2): resolved and permission-checked
   * before anything is written, so a mistake changes nothing; refuses with 422 (not a sales
   * project, no such company) or as the CRM's policy decides.
   */
  resolveCompany(ctx: Context, project: HookProject, given: string | null): Promise<DealCompanyChoice>;
  /** Writes the resolved company on the ticket's deal in the request's transaction; returns what changed for the history entry. */
  writeCompany(ctx: Context, ticketId: string, choice: DealCompanyChoice): Promise<HistoryChange[]>;
  /**
   * The same for a ticket being created: the write (null: none) that the statement creating the
   * ticket makes with it, and the history change.
   */
  newCompany(ticketId: string, choice: DealCompanyChoice): { write: RawBuilder<unknown> | null; changes: HistoryChange[] };
  /**
   * The Deal of each sales ticket, by ticket id, for a member who may see the CRM; tickets left
   * out of the answer carry no `deal` (spec 2.4: "only to a member who may see the CRM").
   */
  present(ctx: Context, tickets: readonly { id: string; fields: Record<string, string> }[]): Promise<ReadonlyMap<string, Deal>>;
}

declare module '../../core/hooks.ts' {
  interface Hooks {
    ticketRequestType?: TicketRequestTypeHook;
    ticketDeal?: TicketDealHook;
  }
}
